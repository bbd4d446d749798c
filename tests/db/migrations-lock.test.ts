/**
 * A migration is only ever added, never edited. Hosted databases record which versions they applied
 * (supabase_migrations.schema_migrations) and never look at a file again, so an edited or removed
 * migration silently parts the code from every database that ran it, and one added before the last
 * applied version is refused by `supabase db push`. supabase/migrations.lock.json holds the SHA-256 of
 * each migration file (hex, of its text with LF line ends, as the CLI hashes seed files in
 * supabase_migrations.seed_files); this test fails when a locked migration changed or went, and when a
 * new one is not locked yet or sorts before a locked one.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readMigrations, type Migration } from '../../local/postgres/migrations.ts';

const MIGRATIONS = join('supabase', 'migrations');
const LOCK = join('supabase', 'migrations.lock.json');

type Lock = Record<string, string>;

function fileName(migration: Migration): string {
  return `${migration.version}_${migration.name}.sql`;
}

function checksum(sql: string): string {
  return createHash('sha256').update(sql.replaceAll('\r\n', '\n')).digest('hex');
}

/** What is wrong between the lock and the migration files, one sentence each; empty when nothing is. */
function lockProblems(lock: Lock, migrations: readonly Migration[]): string[] {
  const problems: string[] = [];
  const files = new Map(migrations.map((migration) => [fileName(migration), migration]));
  for (const [file, locked] of Object.entries(lock)) {
    const migration = files.get(file);
    if (!migration) {
      problems.push(`${file} is locked but gone: restore it; to undo what it did, add a new migration.`);
    } else if (checksum(migration.sql) !== locked) {
      problems.push(
        `${file} changed after it was locked: restore it (git checkout) and put the change in a new migration.`,
      );
    }
  }
  const lastLocked = Object.keys(lock).sort().at(-1) ?? '';
  for (const [file, migration] of files) {
    if (file in lock) continue;
    if (file < lastLocked) {
      problems.push(`${file} sorts before the locked ${lastLocked}: give it a newer timestamp.`);
    } else {
      problems.push(`${file} is not locked: add "${file}": "${checksum(migration.sql)}" to ${LOCK}.`);
    }
  }
  return problems;
}

describe('migrations are only ever added', () => {
  test('every migration is locked, and every locked migration is there unchanged', async () => {
    const lock = JSON.parse(await readFile(LOCK, 'utf8')) as Lock;
    expect(lockProblems(lock, await readMigrations(MIGRATIONS))).toEqual([]);
  });

  test('the lock lists the migrations in version order', async () => {
    const lock = JSON.parse(await readFile(LOCK, 'utf8')) as Lock;
    expect(Object.keys(lock)).toEqual(Object.keys(lock).sort());
  });

  describe('the check sees', () => {
    const first: Migration = {
      version: '20260101000000',
      name: 'create_things',
      sql: 'create table a ();\n',
    };
    const second: Migration = {
      version: '20260102000000',
      name: 'add_name',
      sql: 'alter table a add b int;\n',
    };
    const lock: Lock = { [fileName(first)]: checksum(first.sql), [fileName(second)]: checksum(second.sql) };

    test('nothing wrong when the files are the locked ones (whatever their line ends)', () => {
      const crlf = { ...second, sql: second.sql.replaceAll('\n', '\r\n') };
      expect(lockProblems(lock, [first, crlf])).toEqual([]);
    });

    test('an edited migration', () => {
      expect(lockProblems(lock, [{ ...first, sql: 'create table a (id int);\n' }, second])).toEqual([
        '20260101000000_create_things.sql changed after it was locked: restore it (git checkout) and put the change in a new migration.',
      ]);
    });

    test('a removed migration', () => {
      expect(lockProblems(lock, [second])).toEqual([
        '20260101000000_create_things.sql is locked but gone: restore it; to undo what it did, add a new migration.',
      ]);
    });

    test('a new migration not locked yet, and one older than the last locked', () => {
      const added: Migration = { version: '20260103000000', name: 'add_index', sql: 'select 1;\n' };
      const older: Migration = { version: '20260101120000', name: 'add_other', sql: 'select 2;\n' };
      expect(lockProblems(lock, [first, older, second, added])).toEqual([
        '20260101120000_add_other.sql sorts before the locked 20260102000000_add_name.sql: give it a newer timestamp.',
        `20260103000000_add_index.sql is not locked: add "20260103000000_add_index.sql": "${checksum(added.sql)}" to ${LOCK}.`,
      ]);
    });
  });
});
