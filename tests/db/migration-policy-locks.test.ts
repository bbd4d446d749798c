/**
 * On hosted Supabase, creating, altering or dropping a policy takes ACCESS EXCLUSIVE locks on the tables of
 * supautils' policy grants (Auth's and Storage's among them) until COMMIT: sign-in, uploads and every API
 * write wait. A migration that changes a policy must therefore set `lock_timeout` before it does, so that it
 * fails instead of queueing everyone behind it (docs/deploy.md, step 5). Migrations up to LAST_EXEMPT were
 * written before this rule and are locked (migrations-lock.test.ts), so they are not read.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readMigrations, type Migration } from '../../local/postgres/migrations.ts';

const MIGRATIONS = join('supabase', 'migrations');
const LAST_EXEMPT = 20261204100000n;

const COMMENTS = /--[^\n]*|\/\*[\s\S]*?\*\//g;
const POLICY_CHANGE = /\b(?:create|alter|drop)\s+policy\b/i;
const LOCK_TIMEOUT = /\bset\s+(?:local\s+)?lock_timeout\s*(?:=|\bto\b)/i;

/** The migrations that change a policy without setting lock_timeout first, one sentence each. */
function policyLockProblems(migrations: readonly Migration[]): string[] {
  return migrations
    .filter((migration) => BigInt(migration.version) > LAST_EXEMPT)
    .filter((migration) => !setsLockTimeoutBeforePolicies(migration.sql))
    .map(
      ({ version, name }) =>
        `${version}_${name}.sql changes a policy without setting lock_timeout first: start it with ` +
        `set lock_timeout = '5s'; and keep it to the policy change (docs/deploy.md, step 5).`,
    );
}

function setsLockTimeoutBeforePolicies(sql: string): boolean {
  const code = sql.replace(COMMENTS, '');
  const policy = code.search(POLICY_CHANGE);
  if (policy === -1) return true;
  const timeout = code.search(LOCK_TIMEOUT);
  return timeout !== -1 && timeout < policy;
}

describe('policy changes in migrations', () => {
  test('set lock_timeout first in every migration newer than the rule', async () => {
    expect(policyLockProblems(await readMigrations(MIGRATIONS))).toEqual([]);
  });

  describe('the check sees', () => {
    const newer = (sql: string): Migration => ({ version: '20261205100000', name: 'change_policies', sql });

    test('nothing wrong when lock_timeout is set before the policy changes, or there are none', () => {
      const migrations = [
        newer(`set lock_timeout = '5s';\ncreate policy p on public.tasks for select using (true);\n`),
        newer(`SET LOCAL lock_timeout TO '5s';\nALTER POLICY p ON public.tasks USING (false);\n`),
        newer(`set lock_timeout='2s';\ndrop policy if exists p on public.tasks;\n`),
        newer('create table public.things (id int);\n'),
      ];
      expect(policyLockProblems(migrations)).toEqual([]);
    });

    test.each([
      ['create policy', 'create policy p on public.tasks for select using (true);\n'],
      ['alter policy', 'alter  policy p on public.tasks using (false);\n'],
      ['drop policy', 'Drop Policy if exists p on public.tasks;\n'],
      [
        'a policy change before lock_timeout',
        `create policy p on public.tasks using (true);\nset lock_timeout = '5s';\n`,
      ],
      [
        'lock_timeout only in a comment',
        `-- set lock_timeout = '5s';\n/* set lock_timeout = '5s'; */\ncreate policy p on public.tasks using (true);\n`,
      ],
    ])('%s without lock_timeout first', (_name, sql) => {
      expect(policyLockProblems([newer(sql)])).toEqual([
        `20261205100000_change_policies.sql changes a policy without setting lock_timeout first: start it with set lock_timeout = '5s'; and keep it to the policy change (docs/deploy.md, step 5).`,
      ]);
    });

    test('nothing in the migrations up to 20261204100000, written before the rule', () => {
      const older = {
        version: '20261204100000',
        name: 'create_webhooks',
        sql: 'create policy p on t using (true);',
      };
      expect(policyLockProblems([older])).toEqual([]);
    });
  });
});
