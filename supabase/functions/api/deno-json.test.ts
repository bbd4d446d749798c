import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const readJson = (path: string) =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;

const functionConfig = readJson('supabase/functions/api/deno.json');
const dispatcherConfig = readJson('supabase/functions/webhook-dispatcher/deno.json');
const rootConfig = readJson('deno.json');
const packageJson = readJson('package.json') as { dependencies: Record<string, string> };

/** `npm:hono@4.13.19` and `npm:/hono@4.13.19/` both name hono at 4.13.19. */
function npmPackage(specifier: string): { name: string; version: string } {
  const match = /^npm:\/?((?:@[^/]+\/)?[^@/]+)@([^/]+)\/?$/.exec(specifier);
  if (!match?.[1] || !match[2]) throw new Error(`not a pinned npm specifier: ${specifier}`);
  return { name: match[1], version: match[2] };
}

describe("the API function's deno.json, which the deploy bundles instead of node_modules", () => {
  const imports = Object.entries(functionConfig.imports as Record<string, string>);

  it('pins every import to the version package.json installs for Node (one list of versions)', () => {
    expect(imports.length).toBeGreaterThan(0);
    for (const [alias, specifier] of imports) {
      const { name, version } = npmPackage(specifier);
      expect({ alias, name, version }).toEqual({ alias, name, version: packageJson.dependencies[name] });
    }
  });

  it('leaves node_modules out, since neither deploy path ships it', () => {
    expect(functionConfig).not.toHaveProperty('nodeModulesDir');
  });

  it('is the import map the stand-in and deno check use, so there is no second list', () => {
    expect(rootConfig).not.toHaveProperty('imports');
    expect(rootConfig.importMap).toBe('./supabase/functions/api/deno.json');
  });
});

describe("the webhook dispatcher's own deno.json", () => {
  it("pins each import as the API's does, and leaves node_modules out", () => {
    const apiImports = functionConfig.imports as Record<string, string>;
    const imports = Object.entries(dispatcherConfig.imports as Record<string, string>);
    expect(imports.map(([alias]) => alias).sort()).toEqual(['jose', 'pg', 'zod']);
    for (const [alias, specifier] of imports) expect(specifier).toBe(apiImports[alias]);
    expect(dispatcherConfig).not.toHaveProperty('nodeModulesDir');
  });
});
