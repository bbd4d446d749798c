/**
 * Deploy parity (the hosted-parity and round-trip review, docs/decisions/0013): what `supabase db push` and
 * `supabase functions deploy` would meet on hosted Supabase, rebuilt here. The pinned CLI pushes the
 * migrations as a `postgres` that is not a superuser and may not create in `auth`; the API function runs
 * under the hosted Edge Runtime's Deno (2.1.4) from a bare copy of supabase/functions, with --allow-net
 * --allow-env only and none of the legacy keys, through pgbouncer in transaction mode; and the integrator's
 * tour walks it over HTTP.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readMigrations } from '../../local/postgres/migrations.ts';
import { HOSTED_DENO, HOSTED_DENO_VERSION } from '../support/deploy-tools.ts';
import { expectHttpProblem, httpApi, takeFirstSteps } from '../support/http-api.ts';
import { supabaseClient } from '../support/stand-in-auth.ts';
import { pushMigrations } from './support/db-push.ts';
import { startHostedDatabase, type HostedDatabase } from './support/hosted-database.ts';
import { startHostedFunction, type HostedFunction } from './support/hosted-function.ts';
import { startHostedGateway, type HostedGateway } from './support/hosted-gateway.ts';
import { SERVER_CONNECTIONS, startPgbouncer, type Pgbouncer } from './support/pgbouncer.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..', '..');
const APP_URL = 'https://app.tasklane.test';
const PASSWORD = 'correct horse battery staple';
const FUNCTION_BOOT_TIMEOUT_MS = 120_000;

let database: HostedDatabase;
let pushOutput: string;
let pooler: Pgbouncer;
let gateway: HostedGateway;
let edge: HostedFunction;
let dispatcher: HostedFunction;
const cleanups: (() => Promise<void>)[] = [];

async function superuserQuery<Row extends pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database.superuserUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await startHostedDatabase();
  cleanups.push(() => database.dispose());
  pushOutput = await pushMigrations(database);

  pooler = await startPgbouncer({
    postgresPort: database.port,
    user: 'postgres',
    password: database.postgresPassword,
  });
  cleanups.push(() => pooler.stop());
  gateway = await startHostedGateway(database.authAdminUrl, APP_URL);
  cleanups.push(() => gateway.stop());

  // What a hosted function's environment holds that the API reads: no SUPABASE_ANON_KEY, no
  // SUPABASE_SERVICE_ROLE_KEY, no PATH or HOME; SUPABASE_DB_URL the direct connection, and the secret
  // TASKLANE_DB_URL the transaction pooler, which the API uses instead (docs/deploy.md, step 6).
  const environment = {
    SUPABASE_URL: gateway.url,
    SUPABASE_DB_URL: database.postgresUrl(database.port),
    TASKLANE_DB_URL: database.postgresUrl(pooler.port),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: gateway.keys.secretKey }),
    ALLOWED_ORIGINS: APP_URL,
  };
  edge = await startHostedFunction('api', environment);
  cleanups.push(() => edge.stop());
  gateway.routeFunction('api', edge.port);
  // The webhook dispatcher, deployed from its own deno.json, with the same secrets.
  dispatcher = await startHostedFunction('webhook-dispatcher', environment);
  cleanups.push(() => dispatcher.stop());
  gateway.routeFunction('webhook-dispatcher', dispatcher.port);
  await Promise.all([edge.ready(FUNCTION_BOOT_TIMEOUT_MS), dispatcher.ready(FUNCTION_BOOT_TIMEOUT_MS)]);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a database set up as hosted Supabase sets it up', () => {
  test('has a postgres that is not a superuser and cannot create in auth', async () => {
    const [postgres] = await superuserQuery<{ rolsuper: boolean; create_in_auth: boolean }>(
      "select rolsuper, has_schema_privilege('postgres', 'auth', 'create') as create_in_auth " +
        "from pg_roles where rolname = 'postgres'",
    );
    expect(postgres).toEqual({ rolsuper: false, create_in_auth: false });
  });

  test('takes every migration from the pinned CLI, recorded in its history', async () => {
    const expected = (await readMigrations(join(REPO, 'supabase', 'migrations'))).map((m) => m.version);
    const applied = await superuserQuery<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    );
    expect(
      applied.map((row) => row.version),
      pushOutput,
    ).toEqual(expected);
    expect(pushOutput).toContain('Finished supabase db push.');
  });
});

describe(`the API function under Deno ${HOSTED_DENO_VERSION}, through pgbouncer in transaction mode`, () => {
  const api = () => httpApi(`${gateway.url}/functions/v1/api/v1`);

  test(`runs on the hosted Edge Runtime's Deno version`, async () => {
    const { stdout } = await run(HOSTED_DENO, ['--version']);
    expect(stdout).toMatch(new RegExp(`^deno ${HOSTED_DENO_VERSION.replaceAll('.', '\\.')} `));
    const health = await fetch(api().url('/health'));
    expect(health.status, edge.output()).toBe(200);
  });

  test('walks the integrator tour: sign in, a workspace, tasks, a move, the change feed, the export', async () => {
    const { call } = api();
    const email = `deploy.${randomUUID()}@example.com`;
    const auth = supabaseClient(gateway.url, gateway.keys.publishableKey).auth;
    expect((await auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const signedIn = await auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const session = signedIn.data.session?.access_token ?? '';
    // Auth, connected as supabase_auth_admin, made the user; the trigger postgres owns made the profile.
    const profiles = await superuserQuery(
      'select 1 from public.profiles join auth.users on users.id = profiles.user_id where users.email = $1',
      [email],
    );
    expect(profiles).toHaveLength(1);

    const { token, slug, created } = await takeFirstSteps(api(), session, 'Deploy', () => edge.output());
    expect(await created.json()).toMatchObject({ object: 'workspace', slug, role: 'owner' });
    expect(
      (await call(token, `/workspaces/${slug}/projects`, 'POST', { key: 'ENG', name: 'Engineering' })).status,
    ).toBe(201);

    const feedStart = await call(token, `/workspaces/${slug}/events?types=task.*`);
    const { next_cursor: since } = (await feedStart.json()) as { next_cursor: string };
    const taskKey = randomUUID();
    const newTask = { title: 'Deploy failed on main', priority: 'high' };
    const tasksPath = `/workspaces/${slug}/projects/ENG/tasks`;
    const first = await call(token, tasksPath, 'POST', newTask, { 'Idempotency-Key': taskKey });
    const retry = await call(token, tasksPath, 'POST', newTask, { 'Idempotency-Key': taskKey });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const task = (await first.json()) as { id: string; key: string; version: number };
    expect(task.key).toBe('ENG-1');
    expect((await call(token, tasksPath, 'POST', { title: 'Rotate the signing key' })).status).toBe(201);

    const moved = await call(
      token,
      `/tasks/${task.id}/move`,
      'POST',
      { status: 'in_progress' },
      { 'If-Match': `"${task.version}"` },
    );
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ key: 'ENG-1', status: 'in_progress' });
    await expectHttpProblem(
      await call(
        token,
        `/tasks/${task.id}/move`,
        'POST',
        { status: 'done' },
        { 'If-Match': `"${task.version}"` },
      ),
      412,
      'precondition_failed',
    );

    const feed = await call(token, `/workspaces/${slug}/events?types=task.*&after=${since}`);
    const events = (await feed.json()) as {
      data: { type: string; data: { key?: string } }[];
      has_more: boolean;
    };
    expect(events.data.map((event) => [event.type, event.data.key])).toEqual([
      ['task.created', 'ENG-1'],
      ['task.created', 'ENG-2'],
      ['task.moved', 'ENG-1'],
    ]);
    expect(events.has_more).toBe(false);
    // The events' trigger, owned by a postgres that is no superuser, broadcast them (realtime.send() only
    // warns when it cannot write, so a missing privilege would show here as no message).
    const broadcasts = await superuserQuery<{ event: string }>(
      `select m.event from realtime.messages m join public.workspaces w on m.topic = 'workspace:' || w.id
       where w.slug = $1 and m.event like 'task.%' order by (m.payload ->> 'seq')::bigint`,
      [slug],
    );
    expect(broadcasts.map((message) => message.event)).toEqual([
      'task.created',
      'task.created',
      'task.moved',
    ]);

    const exported = await call(token, `/workspaces/${slug}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="${slug}-export.json"`);
    const document = (await exported.json()) as { object: string; tasks: { key: string; status: string }[] };
    expect(document.object).toBe('export');
    expect(document.tasks.map(({ key, status }) => [key, status]).sort()).toEqual([
      ['ENG-1', 'in_progress'],
      ['ENG-2', 'todo'],
    ]);
  });

  test('reached the database only through the transaction pooler, sharing its few server connections', async () => {
    const pool = await pooler.show('pools');
    expect(pool).toMatchObject({ user: 'postgres', pool_mode: 'transaction' });
    expect(Number(pool.sv_active) + Number(pool.sv_idle) + Number(pool.sv_used)).toBeLessThanOrEqual(
      SERVER_CONNECTIONS,
    );
    // Every request of the tour ran its transactions through it.
    expect(Number((await pooler.show('stats')).total_xact_count)).toBeGreaterThan(20);
  });
});

describe(`the webhook dispatcher under Deno ${HOSTED_DENO_VERSION}, from its own deno.json`, () => {
  const dispatcherUrl = () => `${gateway.url}/functions/v1/webhook-dispatcher`;

  test("answers pg_cron's call with the secret key, and no one else's", async () => {
    const called = await fetch(dispatcherUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${gateway.keys.secretKey}` },
    });
    expect(called.status, dispatcher.output()).toBe(202);
    expect(await called.json()).toEqual({ dispatching: true });
    const anonymous = await fetch(dispatcherUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${gateway.keys.publishableKey}` },
    });
    expect(anonymous.status).toBe(401);
  });

  test('hosted, the API refuses a webhook to loopback, even over http', async () => {
    const { call } = httpApi(`${gateway.url}/functions/v1/api/v1`);
    const email = `hooks.${randomUUID()}@example.com`;
    const auth = supabaseClient(gateway.url, gateway.keys.publishableKey).auth;
    expect((await auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const session =
      (await auth.signInWithPassword({ email, password: PASSWORD })).data.session?.access_token ?? '';
    const { token, slug } = await takeFirstSteps(
      httpApi(`${gateway.url}/functions/v1/api/v1`),
      session,
      'Hooks',
    );
    for (const url of ['http://127.0.0.1:8080/hook', 'https://127.0.0.1/hook', 'https://[::1]/hook']) {
      const refused = await call(token, `/workspaces/${slug}/webhooks`, 'POST', { url, events: ['*'] });
      await expectHttpProblem(refused, 422, 'validation_failed');
    }
  });
});
