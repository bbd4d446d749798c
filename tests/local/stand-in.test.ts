import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPortFree } from '../../local/ports.ts';
import { descendantsOf, isAlive } from '../support/processes.ts';
import { launchStandIn, startStandIn, type StandInProcess } from '../support/stand-in-process.ts';

const run = promisify(execFile);

describe('a running stand-in', () => {
  let standIn: StandInProcess;

  beforeAll(async () => {
    standIn = await startStandIn();
  });

  afterAll(async () => {
    await standIn.dispose();
  });

  test('serves the API function through the gateway, with a healthy database', async () => {
    const response = await fetch(`${standIn.apiUrl}/functions/v1/api/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  test('answers an unknown API route with a problem whose request id is in the server log', async () => {
    const response = await fetch(`${standIn.apiUrl}/functions/v1/api/v1/nope`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { code: string; request_id: string };
    expect(problem.code).toBe('not_found');
    expect(response.headers.get('x-request-id')).toBe(problem.request_id);
    await expect.poll(() => standIn.output()).toContain(problem.request_id);
    const logLine =
      standIn
        .output()
        .split('\n')
        .find((line) => line.includes(problem.request_id)) ?? '';
    expect(logLine).toMatch(/^\[api\] /);
    expect(logLine).toContain('404');
  });

  test('answers unknown functions and unknown services as the Supabase gateway does', async () => {
    const missingFunction = await fetch(`${standIn.apiUrl}/functions/v1/no-such-function`);
    expect(missingFunction.status).toBe(404);
    expect(await missingFunction.text()).toBe('Function not found');
    const unknownService = await fetch(`${standIn.apiUrl}/nothing/v1`);
    expect(unknownService.status).toBe(404);
    expect(await unknownService.json()).toEqual({ message: 'no Route matched with those values' });
  });

  test('has applied every migration, tracked as the Supabase CLI tracks them, and run the seed', async () => {
    const client = new pg.Client({
      connectionString: `postgresql://postgres:postgres@127.0.0.1:${standIn.ports.db}/postgres`,
    });
    await client.connect();
    try {
      const migrations = await client.query(
        'select version, name from supabase_migrations.schema_migrations',
      );
      expect(migrations.rows).toContainEqual({ version: '20261122100000', name: 'create_private_schema' });
      const seeds = await client.query('select path from supabase_migrations.seed_files');
      expect(seeds.rows).toEqual([{ path: 'supabase/seed.sql' }]);
    } finally {
      await client.end();
    }
  });

  test('`npm run status -- --json` prints its URLs and keys', async () => {
    const { stdout } = await run('npm', ['run', '-s', 'status', '--', '--json'], { env: standIn.env });
    const status = JSON.parse(stdout) as Record<string, unknown>;
    expect(status).toMatchObject({
      RUNNING: true,
      API_URL: standIn.apiUrl,
      DB_URL: `postgresql://postgres:postgres@127.0.0.1:${standIn.ports.db}/postgres`,
    });
    expect(status.ANON_KEY).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(status.SERVICE_ROLE_KEY).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(status.PUBLISHABLE_KEY).toMatch(/^sb_publishable_/);
    expect(standIn.output()).toContain(String(status.ANON_KEY));
  });

  test('refuses `npm run reset` while it runs', async () => {
    await expect(run('npm', ['run', '-s', 'reset'], { env: standIn.env })).rejects.toMatchObject({
      stderr: expect.stringContaining('is running'),
    });
  });
});

describe('starting and stopping', () => {
  test('a port in use is a one-line error naming the port and the variable that moves it', async () => {
    const blocker = await listenOn(0);
    const port = (blocker.address() as { port: number }).port;
    const standIn = await launchStandIn({ ports: { api: port } });
    try {
      const code = await new Promise<number | null>((resolve) => standIn.child.once('exit', resolve));
      expect(code).toBe(1);
      expect(standIn.output().trim()).toBe(
        `Port ${port} (the gateway) is already in use: stop what holds it, or set TASKLANE_API_PORT to another port.`,
      );
    } finally {
      blocker.close();
      await standIn.dispose();
    }
  });

  test('SIGTERM leaves no process and no open port behind; data and keys survive a restart', async () => {
    const first = await startStandIn();
    const children = descendantsOf(first.child.pid ?? -1);
    expect(children.length).toBeGreaterThanOrEqual(2); // PostgreSQL and a Deno worker, at least
    const client = new pg.Client({
      connectionString: `postgresql://postgres:postgres@127.0.0.1:${first.ports.db}/postgres`,
    });
    await client.connect();
    await client.query('create table public.survivor (note text)');
    await client.query('insert into public.survivor values ($1)', ['still here']);
    await client.end();
    const firstKeys = keysIn(first.output());

    expect(await first.stop('SIGTERM')).toBe(0);
    expect(children.filter(isAlive)).toEqual([]);
    for (const port of [first.ports.api, first.ports.db, first.ports.mailbox])
      expect(await isPortFree('127.0.0.1', port)).toBe(true);

    const second = await startStandIn({ dataDir: first.dataDir, ports: first.ports });
    try {
      const again = new pg.Client({
        connectionString: `postgresql://postgres:postgres@127.0.0.1:${second.ports.db}/postgres`,
      });
      await again.connect();
      const { rows } = await again.query('select note from public.survivor');
      await again.end();
      expect(rows).toEqual([{ note: 'still here' }]);
      expect(keysIn(second.output())).toEqual(firstKeys);
      expect(second.output()).toContain('migrations up to date');
      expect(second.output()).not.toContain('seeded supabase/seed.sql');
    } finally {
      await second.dispose();
    }
  });
});

function keysIn(output: string): string[] {
  return output.split('\n').filter((line) => /key\s/.test(line));
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}
