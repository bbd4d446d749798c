import pg from 'pg';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  applyMigrations,
  bootstrapSupabase,
  readMigrations,
  seedOnce,
} from '../../local/postgres/migrations.ts';
import { startTestCluster, type TestCluster } from '../support/test-cluster.ts';

let testCluster: TestCluster;
let client: pg.Client;

beforeAll(async () => {
  testCluster = await startTestCluster();
  client = new pg.Client({ connectionString: testCluster.cluster.url() });
  await client.connect();
  await bootstrapSupabase(client);
});

afterAll(async () => {
  await client.end();
  await testCluster.dispose();
});

describe('the Supabase bootstrap', () => {
  test('can run again on every start without changing anything', async () => {
    await expect(bootstrapSupabase(client)).resolves.toBeUndefined();
  });

  test('creates the API roles with the attributes hosted Supabase gives them', async () => {
    const { rows } = await client.query<{
      rolname: string;
      rolcanlogin: boolean;
      rolbypassrls: boolean;
      rolinherit: boolean;
    }>(
      `select rolname, rolcanlogin, rolbypassrls, rolinherit from pg_roles
        where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolcanlogin: false, rolbypassrls: false, rolinherit: false },
      { rolname: 'authenticated', rolcanlogin: false, rolbypassrls: false, rolinherit: false },
      { rolname: 'authenticator', rolcanlogin: true, rolbypassrls: false, rolinherit: false },
      { rolname: 'service_role', rolcanlogin: false, rolbypassrls: true, rolinherit: false },
    ]);
  });

  test('auth.uid(), auth.role(), auth.email() and auth.jwt() read request.jwt.claims as the caller', async () => {
    const claims = {
      sub: '6f1c2a9e-0d7b-4c4e-9a53-2f0c8d6e1b7a',
      role: 'authenticated',
      email: 'ada@example.com',
    };
    await client.query('begin');
    await client.query(
      `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
      [JSON.stringify(claims)],
    );
    const { rows } = await client.query(
      'select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() as jwt, current_user',
    );
    await client.query('rollback');
    expect(rows[0]).toEqual({
      uid: claims.sub,
      role: 'authenticated',
      email: claims.email,
      jwt: claims,
      current_user: 'authenticated',
    });
  });

  test('auth.uid() is null without claims', async () => {
    const { rows } = await client.query('select auth.uid() as uid');
    expect(rows[0]).toEqual({ uid: null });
  });

  test('has the auth tables GoTrue uses, with its column names', async () => {
    const { rows } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'auth' order by table_name`,
    );
    expect(rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        'users',
        'identities',
        'sessions',
        'refresh_tokens',
        'mfa_factors',
        'mfa_challenges',
        'mfa_amr_claims',
        'flow_state',
        'one_time_tokens',
      ]),
    );
    const columns = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = 'auth' and table_name = 'users'`,
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual(
      expect.arrayContaining([
        'id',
        'email',
        'encrypted_password',
        'raw_user_meta_data',
        'raw_app_meta_data',
        'email_confirmed_at',
        'is_anonymous',
        'created_at',
      ]),
    );
  });

  test('installs pgcrypto in the extensions schema', async () => {
    const { rows } = await client.query(
      `select extname, extnamespace::regnamespace::text as schema from pg_extension where extname = 'pgcrypto'`,
    );
    expect(rows).toEqual([{ extname: 'pgcrypto', schema: 'extensions' }]);
  });
});

describe('the realtime and storage schemas of the bootstrap', () => {
  test('realtime.send() stores a private broadcast with its id in the payload and announces it after commit', async () => {
    const listener = new pg.Client({ connectionString: testCluster.cluster.url() });
    await listener.connect();
    try {
      const heard = new Promise<string>((resolve) =>
        listener.on('notification', (message) => resolve(message.payload ?? '')),
      );
      await listener.query('listen realtime_messages');
      await client.query('begin');
      await client.query(`select realtime.send('{"type":"task.moved"}', 'task.moved', 'workspace:w1')`);
      const { rows } = await client.query<{ id: string; payload: { id: string }; private: boolean }>(
        `select id, payload, private from realtime.messages where topic = 'workspace:w1'`,
      );
      await client.query('commit');
      const [message] = rows;
      expect(rows).toHaveLength(1);
      expect(message).toMatchObject({ private: true, payload: { id: message?.id, type: 'task.moved' } });
      await expect(heard).resolves.toBe(message?.id);
    } finally {
      await listener.end();
    }
  });

  test('realtime.send() never fails its caller: an error becomes a warning', async () => {
    await expect(client.query(`select realtime.send(null, 'e', null)`)).resolves.toBeDefined();
  });

  test('storage.foldername(), filename() and extension() split object paths as Storage does', async () => {
    const { rows } = await client.query(
      `select storage.foldername('w/t/a.png') as folders, storage.filename('w/t/a.png') as file,
              storage.extension('w/t/a.png') as ext`,
    );
    expect(rows[0]).toEqual({ folders: ['w', 't'], file: 'a.png', ext: 'png' });
  });

  test('rows of storage.objects are deleted only through the Storage API', async () => {
    await expect(client.query('delete from storage.objects')).rejects.toMatchObject({ code: '42501' });
  });
});

describe('migrations and seed', () => {
  let dir: string;
  let database: pg.Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tasklane-migrations-'));
    await mkdir(join(dir, 'migrations'));
    await writeFile(
      join(dir, 'migrations', '20260101000000_create_things.sql'),
      'create table public.things (id int primary key);',
    );
    await writeFile(
      join(dir, 'migrations', '20260102000000_add_name.sql'),
      'alter table public.things add column name text;',
    );
    await writeFile(join(dir, 'migrations', 'README.md'), 'not a migration');
    await writeFile(join(dir, 'seed.sql'), `insert into public.things values (1, 'seeded');`);
    await client.query('create database migrations_test');
    database = new pg.Client({ connectionString: testCluster.cluster.url('migrations_test') });
    await database.connect();
    await bootstrapSupabase(database);
  });

  afterAll(async () => {
    await database.end();
    await rm(dir, { recursive: true, force: true });
  });

  test('reads only <version>_<name>.sql files, in version order', async () => {
    const migrations = await readMigrations(join(dir, 'migrations'));
    expect(migrations.map((m) => [m.version, m.name])).toEqual([
      ['20260101000000', 'create_things'],
      ['20260102000000', 'add_name'],
    ]);
  });

  test('applies pending migrations once and records them as the Supabase CLI does', async () => {
    expect(await applyMigrations(database, join(dir, 'migrations'))).toEqual([
      '20260101000000',
      '20260102000000',
    ]);
    expect(await applyMigrations(database, join(dir, 'migrations'))).toEqual([]);
    const { rows } = await database.query(
      'select version, name, statements from supabase_migrations.schema_migrations order by version',
    );
    expect(rows).toEqual([
      {
        version: '20260101000000',
        name: 'create_things',
        statements: ['create table public.things (id int primary key);'],
      },
      {
        version: '20260102000000',
        name: 'add_name',
        statements: ['alter table public.things add column name text;'],
      },
    ]);
  });

  test('a failing migration rolls back whole and names itself', async () => {
    await writeFile(
      join(dir, 'migrations', '20260103000000_broken.sql'),
      'create table public.half (id int); select 1/0;',
    );
    await expect(applyMigrations(database, join(dir, 'migrations'))).rejects.toThrow(
      /20260103000000_broken\.sql failed: division by zero/,
    );
    const half = await database.query(`select to_regclass('public.half') as table`);
    expect(half.rows[0]).toEqual({ table: null });
    await rm(join(dir, 'migrations', '20260103000000_broken.sql'));
  });

  test('refuses a database migrated with a file the folder no longer has, and says to reset', async () => {
    await rename(join(dir, 'migrations', '20260102000000_add_name.sql'), join(dir, 'add_name.sql'));
    await writeFile(
      join(dir, 'migrations', '20260102000000_add_label.sql'),
      'alter table public.things add column label text;',
    );
    try {
      await expect(applyMigrations(database, join(dir, 'migrations'))).rejects.toThrow(
        'This database was migrated with 20260102000000_add_name.sql, which supabase/migrations no longer has: run `npm run reset` to start afresh.',
      );
      const label = await database.query(
        `select 1 from information_schema.columns where table_name = 'things' and column_name = 'label'`,
      );
      expect(label.rowCount).toBe(0);
    } finally {
      await rm(join(dir, 'migrations', '20260102000000_add_label.sql'));
      await rename(join(dir, 'add_name.sql'), join(dir, 'migrations', '20260102000000_add_name.sql'));
    }
  });

  test('seeds once per database', async () => {
    expect(await seedOnce(database, join(dir, 'seed.sql'))).toBe(true);
    expect(await seedOnce(database, join(dir, 'seed.sql'))).toBe(false);
    const { rows } = await database.query('select id, name from public.things');
    expect(rows).toEqual([{ id: 1, name: 'seeded' }]);
  });
});
