import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { bootstrapSupabase } from '../../../local/postgres/migrations.ts';
import { startTestCluster, type TestCluster } from '../../support/test-cluster.ts';

/** initdb's superuser on hosted Supabase; `postgres`, the role users get, is not one there. */
export const HOSTED_SUPERUSER = 'supabase_admin';

export interface HostedDatabase {
  port: number;
  /** The database password a hosted project shows once: long and random. */
  postgresPassword: string;
  /** `postgres` (not a superuser), as `supabase db push --db-url` and SUPABASE_DB_URL reach it. */
  postgresUrl(port?: number): string;
  /** supabase_auth_admin, the role hosted Auth (GoTrue) connects as: it owns the auth schema's tables. */
  authAdminUrl: string;
  /** The superuser, for the test's own checks. */
  superuserUrl: string;
  dispose(): Promise<void>;
}

const HOSTED_ROLES_SQL = new URL('./hosted-roles.sql', import.meta.url);

// The attributes supabase/postgres's demotion leaves `postgres`.
const POSTGRES_ATTRIBUTES = 'login nosuperuser createdb createrole replication bypassrls';

/** A fresh PostgreSQL 17 set up as hosted Supabase sets up a new project's database. */
export async function startHostedDatabase(): Promise<HostedDatabase> {
  const test: TestCluster = await startTestCluster({ superuser: HOSTED_SUPERUSER });
  const postgresPassword = randomBytes(24).toString('base64url');
  const authAdminPassword = randomBytes(24).toString('base64url');
  const superuserUrl = test.cluster.url();
  try {
    await setUp(superuserUrl, postgresPassword, authAdminPassword);
  } catch (error) {
    await test.dispose();
    throw error;
  }
  const port = test.cluster.port;
  return {
    port,
    postgresPassword,
    postgresUrl: (through = port) =>
      `postgresql://postgres:${postgresPassword}@127.0.0.1:${through}/postgres`,
    authAdminUrl: `postgresql://supabase_auth_admin:${authAdminPassword}@127.0.0.1:${port}/postgres`,
    superuserUrl,
    dispose: () => test.dispose(),
  };
}

async function setUp(
  superuserUrl: string,
  postgresPassword: string,
  authAdminPassword: string,
): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    await client.query(
      `create role postgres with ${POSTGRES_ATTRIBUTES} password ${client.escapeLiteral(postgresPassword)}`,
    );
    await bootstrapSupabase(client);
    await client.query(`alter role supabase_auth_admin password ${client.escapeLiteral(authAdminPassword)}`);
    await client.query(await readFile(HOSTED_ROLES_SQL, 'utf8'));
  } finally {
    await client.end();
  }
}
