/**
 * A request that changes nothing (GET, HEAD) with an access token has its credential checked and counted
 * in the round trip of its first transaction, on the same connection, without waiting for the check
 * (docs/decisions/0030). The answer still waits for the verdict: a refused session answers 401 and an
 * exhausted limit 429, as before, and that credential's next requests are checked first again. A write
 * never goes ahead. To see what waits for what, the check is held back: a test transaction locks the
 * caller's rate-limit counter, which the check's count must update.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, useTestApp, type TestApp } from '../support/api-app.ts';
import { callApi, problemOf, type ApiResponse } from '../support/api-request.ts';
import { projectIn, taskCalls, type Project } from '../support/task-calls.ts';
import { createTestUser, endSession, withBearer, type TestUser } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const api = useTestApp();
const WORKSPACES = '/api/v1/workspaces';
const BEGIN_AS_CALLER = "begin; select set_config('role', 'authenticated'";
const COUNT = 'private.count_request';
const SESSION_CHECK = 'from auth.sessions as session';

interface Sent {
  client: pg.Client;
  text: string;
}

/** Every statement the API's node-postgres clients send, with the client that sent it. */
const sent: Sent[] = [];
const originalQuery = pg.Client.prototype.query;
beforeAll(() => {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    const text =
      typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
    sent.push({ client: this, text });
    return (originalQuery as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
});
afterAll(() => {
  pg.Client.prototype.query = originalQuery;
});

const sentStatements = (fragment: string): Sent[] => sent.filter(({ text }) => text.includes(fragment));

/** Holds `user`'s counter locked (so the credential check waits) while `during` runs. */
async function withCheckHeldBack<T>(user: TestUser, during: () => Promise<T>): Promise<T> {
  const locker = new pg.Client({ connectionString: api.databaseUrl });
  await locker.connect();
  try {
    await locker.query('begin');
    const { rowCount } = await locker.query(
      'select 1 from private.rate_limit_counters where bucket = $1 for update',
      [`user:${user.id}`],
    );
    expect(rowCount, 'the counter exists (one request was counted before)').toBe(1);
    return await during();
  } finally {
    await locker.query('rollback').catch(() => undefined);
    await locker.end();
  }
}

async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let acme: WorkspaceFixture;
let project: Project;
beforeAll(async () => {
  acme = await createWorkspaceWithRoles(api.db);
  project = await projectIn(api.app, acme);
});

describe('a request that changes nothing', () => {
  it("sends its transaction behind the credential's check, on the same connection, without waiting for it", async () => {
    const member = acme.member;
    const list = () => taskCalls(api.app).list(member.accessToken, acme, project.key);
    expect((await list()).status).toBe(200);
    const response = await withCheckHeldBack(member, async () => {
      sent.length = 0;
      let answered = false;
      const pending = list().finally(() => (answered = true));
      await eventually(() => sentStatements(BEGIN_AS_CALLER).length > 0, 'the transaction was sent');
      await pause(100);
      expect(answered, 'the answer waits for the check').toBe(false);
      const [check] = sentStatements(COUNT);
      const [transaction] = sentStatements(BEGIN_AS_CALLER);
      expect(check?.client).toBeDefined();
      expect(transaction?.client).toBe(check?.client);
      return { pending };
    });
    const answer = await response.pending;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'list' });
  });
});

describe('a write', () => {
  it('waits for the credential check before its transaction', async () => {
    const member = acme.member;
    const answer = await withCheckHeldBack(member, async () => {
      sent.length = 0;
      const pending = taskCalls(api.app).create(member.accessToken, acme, project.key, {
        title: 'Checked first',
        status: 'todo',
      });
      await eventually(() => sentStatements(COUNT).length > 0, 'the check was sent');
      await pause(150);
      expect(sentStatements(BEGIN_AS_CALLER), 'no transaction before the check').toEqual([]);
      return { pending };
    });
    expect((await answer.pending).status).toBe(201);
  });
});

describe('a refused credential', () => {
  it('answers 401 for a signed-out session, with nothing of the work, and is checked first from then on', async () => {
    const leaving = await createTestUser(api.db);
    const workspaces = () => callApi(api.app, WORKSPACES, withBearer(leaving.accessToken));
    expect((await workspaces()).status).toBe(200);
    await endSession(api.db, leaving.sessionId);

    sent.length = 0;
    const refused = await workspaces();
    expectSessionEnded(refused);
    expect(sentStatements(BEGIN_AS_CALLER), 'the work went ahead of the check').toHaveLength(1);

    sent.length = 0;
    expectSessionEnded(await workspaces());
    expect(sentStatements(SESSION_CHECK)).toHaveLength(1);
    expect(sentStatements(BEGIN_AS_CALLER), 'checked first: no work').toEqual([]);
  });

  it('answers 429 past the limit, and the next requests wait for their count', async () => {
    const limited: TestApp = createTestApp(api.databaseUrl, { rateLimits: { user: 2, ip: 1_000 } });
    try {
      await awaitRoomInWindow(10);
      const ada = await createTestUser(api.db);
      const workspaces = () => callApi(limited.app, WORKSPACES, withBearer(ada.accessToken));
      expect((await workspaces()).status).toBe(200);
      expect((await workspaces()).status).toBe(200);

      sent.length = 0;
      expectRateLimited(await workspaces());
      expect(sentStatements(BEGIN_AS_CALLER), 'the work went ahead of the count').toHaveLength(1);

      sent.length = 0;
      expectRateLimited(await workspaces());
      expect(sentStatements(COUNT)).toHaveLength(1);
      expect(sentStatements(BEGIN_AS_CALLER), 'counted first: no work').toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

function expectSessionEnded(response: ApiResponse): void {
  expect(response.status).toBe(401);
  expect(problemOf(response).detail).toBe('The session has ended (signed out or timed out). Sign in again.');
  expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  expect(JSON.stringify(response.body)).not.toContain('"object":"list"');
}

function expectRateLimited(response: ApiResponse): void {
  expect(response.status).toBe(429);
  expect(problemOf(response).code).toBe('rate_limited');
  expect(response.headers.get('ratelimit-policy')).toBe('"user";q=2;w=60');
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(JSON.stringify(response.body)).not.toContain('"object":"list"');
}

/** Waits for the next window when fewer than `seconds` are left in this one. */
async function awaitRoomInWindow(seconds: number): Promise<void> {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < seconds) await pause((left + 0.5) * 1000);
}
