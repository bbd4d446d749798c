import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestApp, useTestApp } from '../support/api-app.ts';
import { callApi, problemOf } from '../support/api-request.ts';

const api = useTestApp();

describe('GET /api/v1/health', () => {
  it('answers 200 when the database answers', async () => {
    const response = await callApi(api.app, '/api/v1/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ status: 'ok', database: 'ok' });
  });

  it('rejects a query parameter it does not define', async () => {
    const response = await callApi(api.app, '/api/v1/health?verbose=1');
    expect(response.status).toBe(400);
    expect(problemOf(response)).toMatchObject({
      code: 'bad_request',
      errors: [{ path: 'query.verbose', code: 'unknown_field', message: 'Unknown field "verbose".' }],
    });
  });

  it('answers 503 unavailable with Retry-After within 2 s when the database is down, and keeps serving', async () => {
    const down = createTestApp(`postgresql://postgres@127.0.0.1:${await closedPort()}/postgres`);
    const started = performance.now();
    const response = await callApi(down.app, '/api/v1/health');
    const elapsed = performance.now() - started;
    await down.close();

    expect(response.status).toBe(503);
    expect(elapsed).toBeLessThan(2_000);
    expect(response.headers.get('retry-after')).toBe('5');
    const problem = problemOf(response);
    expect(problem).toMatchObject({ code: 'unavailable', title: 'Service unavailable', status: 503 });
    expect(problem.detail).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(down.logs.forRequest(problem.request_id)).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'unavailable', error_code: 'ECONNREFUSED' }),
    );

    expect((await callApi(api.app, '/api/v1/health')).status).toBe(200);
  });

  it('survives the database dropping its idle connections, and answers on the next request', async () => {
    expect((await callApi(api.app, '/api/v1/health')).status).toBe(200);
    await terminateOtherConnections(api.databaseUrl);
    await expect
      .poll(() => api.logs.entries.some((entry) => entry.msg === 'idle database connection lost'))
      .toBe(true);

    const response = await callApi(api.app, '/api/v1/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'ok' });
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function terminateOtherConnections(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    );
    expect(rowCount).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
}
