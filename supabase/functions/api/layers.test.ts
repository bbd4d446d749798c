/**
 * The layers say what they do (docs/architecture.md#the-api): Postgres refusals are translated in the
 * queries modules, so no service reads a raised code, a constraint name or a hint; and a resource that
 * Postgres builds as JSON (`private.<resource>_json`) is not built a second time in TypeScript.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const API = import.meta.dirname;
const MIGRATIONS = join(API, '..', '..', 'migrations');

const sourcesEndingWith = (suffix: string): string[] =>
  readdirSync(API, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(suffix))
    .map((path) => join(API, path));

const importsOf = (path: string): string[] =>
  [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1] ?? '');

describe('the layers of the API', () => {
  it('leave Postgres refusals to the queries modules: no service imports sql-errors', () => {
    const services = sourcesEndingWith('.service.ts');
    expect(services.length).toBeGreaterThan(10);
    const readingRefusals = services
      .filter((path) => importsOf(path).some((from) => from.endsWith('/sql-errors.ts')))
      .map((path) => relative(API, path));
    expect(readingRefusals).toEqual([]);
  });

  it('build each resource once: none that SQL builds has a TypeScript serializer too', () => {
    const builtInSql = readdirSync(MIGRATIONS)
      .flatMap((file) => [
        ...readFileSync(join(MIGRATIONS, file), 'utf8').matchAll(/create function private\.(\w+)_json\(/g),
      ])
      .map((match) => match[1] ?? '');
    expect(builtInSql).toEqual(expect.arrayContaining(['project', 'label', 'member', 'task', 'comment']));
    const serializers = sourcesEndingWith('.ts').flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/function to(\w+)\(/g)].map((match) => match[1]?.toLowerCase()),
    );
    expect(builtInSql.filter((resource) => serializers.includes(resource))).toEqual([]);
  });
});
