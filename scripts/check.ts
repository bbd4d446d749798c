// `npm run check`: every static check, in order, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoSeedSql, SEED_PATH } from '../local/demo-seed.ts';
import { SPEC_VALUES_PATH, specValuesSource } from './generate-vocabulary.ts';

const bin = (name: string) => join('node_modules', '.bin', name);

const functionEntrypoints = readdirSync(join('supabase', 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .map((entry) => join('supabase', 'functions', entry.name, 'index.ts'))
  .filter((path) => existsSync(path));

const steps: [string, () => boolean | Promise<boolean>][] = [
  ['types: local, tests, scripts (tsc)', () => run(bin('tsc'), ['-p', 'tsconfig.json'])],
  ['types: web (tsc)', () => run(bin('tsc'), ['-p', 'web/tsconfig.json'])],
  [
    'types: edge functions (deno check)',
    () =>
      run(bin('deno'), [
        'check',
        '--quiet',
        '--config',
        'deno.json',
        ...functionEntrypoints,
        // Deno only, and not yet imported by an entrypoint: checked on its own.
        'supabase/functions/_shared/outbound/deno-network.ts',
        'local/functions/deno-host.ts',
        'bench/bare-handler.ts',
      ]),
  ],
  ['lint (eslint)', () => run(bin('eslint'), ['--max-warnings=0', '.'])],
  ['format (prettier)', () => run(bin('prettier'), ['--check', '--log-level', 'warn', '.'])],
  [
    'openapi.yaml (redocly lint)',
    () => run(bin('redocly'), ['lint', '--format', 'codeframe', 'openapi.yaml']),
  ],
  ['generated api-spec/ is fresh', apiSpecIsFresh],
  [`generated ${SPEC_VALUES_PATH} is fresh`, specValuesAreFresh],
  ['generated supabase/seed.sql is fresh', seedIsFresh],
];

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

function apiSpecIsFresh(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'tasklane-gen-'));
  try {
    const generated = join(dir, 'schema.d.ts');
    const made = spawnSync(bin('openapi-typescript'), ['openapi.yaml', '-o', generated], { stdio: 'ignore' });
    if (made.status !== 0) return false;
    if (readFileSync(generated, 'utf8') === readFileSync(join('api-spec', 'schema.d.ts'), 'utf8'))
      return true;
    process.stderr.write('api-spec/schema.d.ts is stale: run `npm run gen` and commit the result.\n');
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function seedIsFresh(): boolean {
  if (readFileSync(SEED_PATH, 'utf8') === demoSeedSql()) return true;
  process.stderr.write(`${SEED_PATH} is stale: run \`npm run gen\` and commit the result.\n`);
  return false;
}

async function specValuesAreFresh(): Promise<boolean> {
  if (readFileSync(SPEC_VALUES_PATH, 'utf8') === (await specValuesSource())) return true;
  process.stderr.write(`${SPEC_VALUES_PATH} is stale: run \`npm run gen\` and commit the result.\n`);
  return false;
}

for (const [name, step] of steps) {
  process.stdout.write(`check: ${name}\n`);
  if (!(await step())) {
    process.stderr.write(`check failed: ${name}\n`);
    process.exit(1);
  }
}
process.stdout.write('check: all passed\n');
