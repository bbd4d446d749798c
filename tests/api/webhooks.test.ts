/**
 * Webhooks through the API (docs/webhooks.md): creation with its secret shown once, the URL checked for
 * where it leads, the event filters, the limit of 10, changes, rotation, the test ping, the delivery log
 * and redelivery; owners and admins only. Nothing here is sent: the dispatcher's tests send.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from '../support/api-app.ts';
import { expectProblem } from '../support/api-request.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import { asService } from '../support/service-transaction.ts';
import { projectIn, taskCalls } from '../support/task-calls.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';
import { storedDeliveries, storedSecrets, webhookCalls, type NewWebhook } from '../support/webhook-calls.ts';

/** Names the tests may resolve, to the addresses given: nothing is looked up for real. */
const NAMES: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
  'internal.example.com': ['192.168.1.20'],
};
const api = useTestApp({
  rateLimits: RATE_LIMITS_OUT_OF_THE_WAY,
  webhookDestinations: { resolve: (host) => Promise.resolve(NAMES[host] ?? []), allowLoopbackHttp: true },
});
const hooks = () => webhookCalls(api.app);
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let ws: WorkspaceFixture;

beforeAll(async () => {
  ws = await createWorkspaceWithRoles(api.db);
});

async function created(url = 'https://hooks.example.com/tasklane', events = ['task.*']): Promise<NewWebhook> {
  const response = await hooks().create(ws.admin.accessToken, ws.slug, { url, events });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const countWebhooks = async (workspaceId: string) =>
  Number(
    (
      await asService(api.db, (sql) =>
        sql.query<{ n: string }>('select count(*) as n from public.webhooks where workspace_id = $1', [
          workspaceId,
        ]),
      )
    )[0]?.n,
  );

describe('creating a webhook', () => {
  it('answers the webhook with its secret, this once; reads never show it', async () => {
    const response = await hooks().create(ws.owner.accessToken, ws.slug, {
      url: 'https://hooks.example.com/tasklane',
      events: ['task.created', 'comment.*'],
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('location')).toBe(`webhooks/${response.body.id}`);
    expect(response.body).toEqual({
      object: 'webhook',
      id: expect.any(String),
      workspace_id: ws.id,
      url: 'https://hooks.example.com/tasklane',
      events: ['task.created', 'comment.*'],
      active: true,
      disabled_reason: null,
      created_by: ws.owner.id,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
      secret: expect.stringMatching(SECRET),
    });
    const secret = response.body.secret;
    expect((await storedSecrets(api.db, response.body.id))?.secret).toBe(secret);

    const read = await hooks().get(ws.admin.accessToken, ws.slug, response.body.id);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify((await hooks().list(ws.owner.accessToken, ws.slug)).body)).not.toContain(secret);
  });

  it.each([
    ['http://hooks.example.com/x', 'https'],
    ['https://10.0.0.1/x', '10.0.0.0/8'],
    ['https://169.254.169.254/latest/meta-data', '169.254.0.0/16'],
    ['https://[::1]/x', '::1'],
    ['https://2130706433/x', '127.0.0.0/8'],
    ['https://internal.example.com/x', '192.168.0.0/16'],
    ['https://rebind.example.com/x', '10.0.0.0/8'],
    ['https://nowhere.example.com/x', 'resolve'],
    ['https://user:pw@hooks.example.com/x', ''],
    ['ftp://hooks.example.com/x', ''],
    ['not a url', ''],
  ])('refuses %s with 422 on body.url, and stores nothing', async (url, reason) => {
    // As hosted: no loopback, even over http.
    const hosted = createTestApp(api.databaseUrl, {
      rateLimits: RATE_LIMITS_OUT_OF_THE_WAY,
      webhookDestinations: {
        resolve: (host) => Promise.resolve(NAMES[host] ?? []),
        allowLoopbackHttp: false,
      },
    });
    const before = await countWebhooks(ws.id);
    const response = await webhookCalls(hosted.app).create(ws.owner.accessToken, ws.slug, {
      url,
      events: ['*'],
    });
    await hosted.close();
    const problem = expectProblem(response, 422, 'validation_failed');
    expect(problem.errors?.[0]?.path).toBe('body.url');
    expect(problem.errors?.[0]?.message.toLowerCase()).toContain(reason);
    expect(await countWebhooks(ws.id)).toBe(before);
  });

  it('takes http to loopback only where the stand-in allows it', async () => {
    const webhook = await created('http://127.0.0.1:8080/hook');
    expect(webhook.url).toBe('http://127.0.0.1:8080/hook');
  });

  it.each([[['task.exploded']], [['nothing.*']], [[]], [['task.*', 'task.*']], [['**']]])(
    'refuses the event filters %j',
    async (events) => {
      const response = await hooks().raw.create(ws.owner.accessToken, ws.slug, {
        url: 'https://hooks.example.com/x',
        events,
      });
      const problem = expectProblem(response, 422, 'validation_failed');
      expect(problem.errors?.[0]?.path).toMatch(/^body\.events/);
    },
  );

  it('refuses unknown fields', async () => {
    const response = await hooks().raw.create(ws.owner.accessToken, ws.slug, {
      url: 'https://hooks.example.com/x',
      events: ['*'],
      secret: 'whsec_mine',
    });
    expectProblem(response, 422, 'validation_failed');
  });

  it('members, viewers and outsiders may not', async () => {
    const body = { url: 'https://hooks.example.com/x', events: ['*'] };
    expectProblem(await hooks().create(ws.member.accessToken, ws.slug, body), 403, 'forbidden');
    expectProblem(await hooks().create(ws.viewer.accessToken, ws.slug, body), 403, 'forbidden');
    expectProblem(await hooks().create(ws.outsider.accessToken, ws.slug, body), 404, 'not_found');
    expectProblem(await hooks().list(ws.member.accessToken, ws.slug), 403, 'forbidden');
  });

  it('a workspace holds 10 at most: the 11th is 409 limit_reached', async () => {
    const full = await createWorkspaceWithRoles(api.db);
    const body = { url: 'https://hooks.example.com/x', events: ['*'] };
    const answers = await Promise.all(
      Array.from({ length: 11 }, () => hooks().create(full.owner.accessToken, full.slug, body)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array<number>(10).fill(201), 409]);
    expect(await countWebhooks(full.id)).toBe(10);
  });
});

describe('changing a webhook', () => {
  it('changes URL, events and active, bumps the version, honours If-Match', async () => {
    const webhook = await created();
    const stale = await hooks().update(
      ws.admin.accessToken,
      ws.slug,
      webhook.id,
      { active: false },
      { 'If-Match': '"9"' },
    );
    expectProblem(stale, 412, 'precondition_failed');
    const changed = await hooks().update(
      ws.admin.accessToken,
      ws.slug,
      webhook.id,
      { url: 'https://hooks.example.com/v2', events: ['*'], active: false },
      { 'If-Match': '"1"' },
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      url: 'https://hooks.example.com/v2',
      events: ['*'],
      active: false,
      version: 2,
    });
    const refused = await hooks().update(ws.admin.accessToken, ws.slug, webhook.id, {
      url: 'https://10.1.2.3/',
    });
    expectProblem(refused, 422, 'validation_failed');
    expect((await hooks().get(ws.admin.accessToken, ws.slug, webhook.id)).body.url).toBe(
      'https://hooks.example.com/v2',
    );
  });

  it('rotating answers a new secret and keeps the old one signing', async () => {
    const webhook = await created();
    const rotated = await hooks().rotate(ws.admin.accessToken, ws.slug, webhook.id);
    expect(rotated.status, rotated.text).toBe(200);
    const secret = rotated.body.secret;
    expect(secret).toMatch(SECRET);
    expect(secret).not.toBe(webhook.secret);
    expect(await storedSecrets(api.db, webhook.id)).toEqual({ secret, previous_secret: webhook.secret });
    expectProblem(await hooks().rotate(ws.member.accessToken, ws.slug, webhook.id), 403, 'forbidden');
  });

  it('deleting takes it and its deliveries away; again is 404', async () => {
    const webhook = await created();
    expect((await hooks().test(ws.admin.accessToken, ws.slug, webhook.id)).status).toBe(202);
    expect((await hooks().remove(ws.owner.accessToken, ws.slug, webhook.id)).status).toBe(204);
    expect(await storedDeliveries(api.db, webhook.id)).toEqual([]);
    expectProblem(await hooks().remove(ws.owner.accessToken, ws.slug, webhook.id), 404, 'not_found');
  });

  it("another workspace's webhook is 404 to this workspace's admin", async () => {
    const other = await createWorkspaceWithRoles(api.db);
    const response = await hooks().create(other.owner.accessToken, other.slug, {
      url: 'https://hooks.example.com/x',
      events: ['*'],
    });
    expectProblem(await hooks().get(ws.owner.accessToken, ws.slug, response.body.id), 404, 'not_found');
    expectProblem(await hooks().get(ws.owner.accessToken, other.slug, response.body.id), 404, 'not_found');
  });
});

describe('the outbox', () => {
  it('each event gets a delivery per active webhook that listens to its type, in its transaction', async () => {
    const place = await createWorkspaceWithRoles(api.db);
    const key = (await projectIn(api.app, place)).key;
    const make = (events: string[]) =>
      hooks()
        .create(place.owner.accessToken, place.slug, { url: 'https://hooks.example.com/x', events })
        .then((r) => r.body.id);
    const [tasksOnly, everything, comments, off] = await Promise.all([
      make(['task.created']),
      make(['*']),
      make(['comment.*']),
      make(['*']),
    ]);
    await hooks().update(place.owner.accessToken, place.slug, off, { active: false });

    const task = await taskCalls(api.app).create(place.member.accessToken, place, key, { title: 'Outbox' });
    expect(task.status, task.text).toBe(201);

    const types = async (id: string) => (await storedDeliveries(api.db, id)).map((d) => d.event_type);
    expect(await types(tasksOnly)).toEqual(['task.created']);
    expect(await types(everything)).toContain('task.created');
    expect(await types(comments)).toEqual([]);
    expect(await types(off)).toEqual([]);
  });
});

describe('the delivery log', () => {
  it('a test ping is queued pending, listed newest first, and shown with the body it will send', async () => {
    const webhook = await created();
    const ping = await hooks().test(ws.admin.accessToken, ws.slug, webhook.id);
    expect(ping.status, ping.text).toBe(202);
    expect(ping.body).toEqual({
      object: 'webhook_delivery',
      id: expect.any(String),
      webhook_id: webhook.id,
      event_id: null,
      event_type: 'ping',
      status: 'pending',
      attempts: 0,
      response_status: null,
      latency_ms: null,
      error: null,
      last_attempt_at: null,
      next_attempt_at: expect.stringMatching(ISO_TIMESTAMP),
      created_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const second = await hooks().test(ws.admin.accessToken, ws.slug, webhook.id);
    const list = await hooks().deliveries(ws.owner.accessToken, ws.slug, webhook.id, '?limit=1');
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((d) => d.id)).toEqual([second.body.id]);
    expect(list.body.next_cursor).toEqual(expect.any(String));
    const next = await hooks().deliveries(
      ws.owner.accessToken,
      ws.slug,
      webhook.id,
      `?limit=1&cursor=${list.body.next_cursor}`,
    );
    expect(next.body.data.map((d) => d.id)).toEqual([ping.body.id]);

    const detail = await hooks().delivery(ws.admin.accessToken, ws.slug, webhook.id, ping.body.id);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.response).toBeNull();
    expect(JSON.parse(detail.body.request.body)).toEqual({
      type: 'ping',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
      data: { object: 'ping', webhook_id: webhook.id, url: webhook.url },
    });
  });

  it('redelivering makes a delivery due again with its schedule from the start', async () => {
    const webhook = await created();
    const ping = await hooks().test(ws.admin.accessToken, ws.slug, webhook.id);
    await asService(api.db, (sql) =>
      sql.query(
        `update public.webhook_deliveries set status = 'failed', attempts = 10, retry_step = 10,
           next_attempt_at = null where id = $1`,
        [ping.body.id],
      ),
    );
    const again = await hooks().redeliver(ws.admin.accessToken, ws.slug, webhook.id, ping.body.id);
    expect(again.status, again.text).toBe(202);
    expect(again.body).toMatchObject({ id: ping.body.id, status: 'pending', attempts: 10 });
    expect(again.body.next_attempt_at).toEqual(expect.stringMatching(ISO_TIMESTAMP));
    expectProblem(
      await hooks().redeliver(ws.member.accessToken, ws.slug, webhook.id, ping.body.id),
      403,
      'forbidden',
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectProblem(
      await hooks().redeliver(ws.admin.accessToken, ws.slug, webhook.id, unknown),
      404,
      'not_found',
    );
  });

  it('an API token of an admin manages webhooks too; a read token only reads', async () => {
    const write = await createApiTokenFor(api.app, ws.admin, 'write');
    const read = await createApiTokenFor(api.app, ws.admin, 'read');
    const body = { url: 'https://hooks.example.com/token', events: ['*'] };
    expect((await hooks().create(write, ws.slug, body)).status).toBe(201);
    expectProblem(await hooks().create(read, ws.slug, body), 403, 'insufficient_scope');
    expect((await hooks().list(read, ws.slug)).status).toBe(200);
  });
});
