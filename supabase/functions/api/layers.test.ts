/**
 * The layers say what they do (ARCHITECTURE.md, "The API"): Postgres refusals are translated in the
 * queries modules, so no service reads a raised code, a constraint name or a hint.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const API = import.meta.dirname;

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
});
