import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own for one test file, cloned from the migrated template: files run in parallel. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `create database ${name} template ${inject('templateDatabase')}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

export interface TestDatabaseClient {
  /** The client, as the database owner. */
  readonly db: pg.Client;
  /** The database's URL, for tests that need connections of their own. */
  readonly url: string;
}

/**
 * The usual setup of a tests/db file: a database of its own and one client on it as the owner, made
 * before the file's (or the describe block's) tests and dropped after them.
 */
export function useTestDatabaseClient(): TestDatabaseClient {
  let database: TestDatabase | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });
  const current = () => {
    if (!client || !database)
      throw new Error('useTestDatabaseClient(): the database exists only inside tests');
    return { db: client, url: database.url };
  };
  return {
    get db() {
      return current().db;
    },
    get url() {
      return current().url;
    },
  };
}

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
