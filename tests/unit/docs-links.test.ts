import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every reference in the repository resolves inside it: a clone without the planning folder beside it or
 * the issue tracker can follow each one. Product rules are cited as `docs/product.md#…`, the architecture as
 * `docs/architecture.md`, Supabase's wire protocols as `docs/supabase-protocols.md#…`, and the reasons for a
 * choice as `docs/decisions/NNNN-….md`.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

// The patterns are assembled from pieces so that this file does not match them itself.
const unresolvable: { name: string; pattern: RegExp }[] = [
  { name: 'a citation of the planning spec', pattern: new RegExp('SPEC ' + '§') },
  { name: 'an issue-tracker number', pattern: new RegExp('\\b[Ii]ssue' + ' #?[0-9]+') },
  { name: 'the planning architecture file', pattern: new RegExp('ARCHITECTURE' + '\\.md') },
  { name: 'a path outside the repository', pattern: new RegExp('\\.\\./' + 'shared\\b') },
  { name: 'the planning reference folder', pattern: new RegExp('shared/' + 'reference\\b') },
  { name: 'a section of the planning reference', pattern: new RegExp('\\breference' + ' §') },
  { name: 'the planning protocol reference', pattern: new RegExp('protocols\\.md' + '\\s*§') },
  {
    name: 'a planning anchors file',
    pattern: new RegExp('\\b(product|perf-reliability|aesthetics)' + '-anchors\\b'),
  },
];

// Paths that may keep such a reference, and why.
const allowed = new Map<string, string>([
  ['.ci/run', 'CI clones the repository with its planning folder beside it, as the task runner does'],
  ['supabase/migrations/', 'a migration is never edited once it is on main: its comments are history'],
]);

function isAllowed(path: string): boolean {
  return [...allowed.keys()].some((allowedPath) =>
    allowedPath.endsWith('/') ? path.startsWith(allowedPath) : path === allowedPath,
  );
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(root, path)));
}

function textOf(path: string): string | undefined {
  const bytes = readFileSync(join(root, path));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

function unresolvableReferences(): string[] {
  const found: string[] = [];
  for (const path of trackedFiles()) {
    if (isAllowed(path)) continue;
    const lines = textOf(path)?.split('\n') ?? [];
    lines.forEach((line, index) => {
      for (const { name, pattern } of unresolvable) {
        if (pattern.test(line)) found.push(`${path}:${index + 1}: ${name}: ${line.trim()}`);
      }
    });
  }
  return found;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_~]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function withoutCodeBlocks(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

function linksOf(markdown: string): string[] {
  const links: string[] = [];
  for (const line of withoutCodeBlocks(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push(match[1] ?? '');
    const definition = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (definition?.[1]) links.push(definition[1]);
  }
  return links;
}

function isRelative(link: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('/') && !link.startsWith('<');
}

function brokenLinksIn(path: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(readFileSync(join(root, path), 'utf8')).filter(isRelative)) {
    const [target = '', anchor] = link.split('#');
    const resolved = target === '' ? path : normalize(join(dirname(path), decodeURIComponent(target)));
    if (!existsSync(join(root, resolved))) {
      broken.push(`${path}: ${link}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined || statSync(join(root, resolved)).isDirectory()) continue;
    if (!resolved.endsWith('.md')) continue;
    if (!anchorsOf(readFileSync(join(root, resolved), 'utf8')).has(decodeURIComponent(anchor)))
      broken.push(`${path}: ${link}: no heading #${anchor} in ${resolved}`);
  }
  return broken;
}

/** Where a tracked file cites a page of docs/ with a section (`docs/product.md#roles`), that section. */
function brokenDocsCitations(): string[] {
  const broken: string[] = [];
  for (const path of trackedFiles()) {
    const citations = textOf(path)?.matchAll(/\bdocs\/([\w/.-]+\.md)#([\w-]+)/g) ?? [];
    for (const [citation, page = '', anchor = ''] of citations) {
      const target = join('docs', page);
      if (!existsSync(join(root, target))) broken.push(`${path}: ${citation}: no file ${target}`);
      else if (!anchorsOf(readFileSync(join(root, target), 'utf8')).has(anchor))
        broken.push(`${path}: ${citation}: no heading #${anchor} in ${target}`);
    }
  }
  return broken;
}

describe('references resolve inside the repository', () => {
  it('cites no planning spec, issue number or path outside the repository, but where allowed', () => {
    expect(unresolvableReferences()).toEqual([]);
  });

  it('has every relative link in README.md and docs/ point at a file and heading that exist', () => {
    const markdown = trackedFiles().filter(
      (path) => path === 'README.md' || (path.startsWith('docs/') && path.endsWith('.md')),
    );
    expect(markdown.length).toBeGreaterThan(40);
    expect(markdown.flatMap(brokenLinksIn)).toEqual([]);
  });

  it('has every `docs/….md#section` cited in a tracked file name a heading that exists', () => {
    expect(brokenDocsCitations()).toEqual([]);
  });

  it('makes anchors the way GitHub does', () => {
    expect([
      ...anchorsOf('# Roles\n## Task statuses and their order\n## `slug` (pattern)\n## Roles'),
    ]).toEqual(['roles', 'task-statuses-and-their-order', 'slug-pattern', 'roles-1']);
  });
});
