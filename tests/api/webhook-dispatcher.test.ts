/**
 * The webhook dispatcher (docs/webhooks.md), run in-process against a real database and a receiver on
 * loopback that verifies every delivery with the `standardwebhooks` package (an implementation of its
 * own): signing, rotation, the retry schedule under a fixed clock, Retry-After, 410, three days of
 * failures, a refused address at send time, and a claim whose dispatcher died.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  dispatchDue,
  type DispatcherDeps,
} from '../../supabase/functions/webhook-dispatcher/dispatch-due.ts';
import { claimDueDeliveries } from '../../supabase/functions/webhook-dispatcher/dispatcher.queries.ts';
import { RETRY_DELAYS_MS } from '../../supabase/functions/webhook-dispatcher/retry-schedule.ts';
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from '../support/api-app.ts';
import { fakeResolver, loopbackConnector, recordingConnector } from '../support/fake-network.ts';
import { asService } from '../support/service-transaction.ts';
import { projectIn, taskCalls } from '../support/task-calls.ts';
import { webhookCalls, type NewWebhook } from '../support/webhook-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });
const hooks = () => webhookCalls(api.app);

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
/** What the receiver answers next: a status and headers, or `hang` (never answers). */
type Script = { status: number; headers?: Record<string, string> } | 'hang';

const received: Received[] = [];
let script: Script[] = [];
let server: Server;
let receiverUrl: string;
let ws: WorkspaceFixture;
let key: string;

const NOW = new Date();
const deps = (overrides: Partial<DispatcherDeps> = {}): DispatcherDeps => ({
  db: api.db,
  logger: api.logs.logger,
  resolve: fakeResolver({}).resolve,
  connect: loopbackConnector,
  allowLoopbackHttp: true,
  appUrl: 'https://app.tasklane.test',
  timeoutMs: 500,
  now: () => NOW,
  random: () => 0.5,
  ...overrides,
});

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift() ?? { status: 200 };
      if (next === 'hang') return;
      response.writeHead(next.status, next.headers ?? {});
      response.end(`answer ${next.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  ws = await createWorkspaceWithRoles(api.db);
  key = (await projectIn(api.app, ws)).key;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  received.length = 0;
  script = [];
  // Each test starts with no webhook, so only its own receives.
  await asService(api.db, (sql) => sql.query('delete from public.webhooks where workspace_id = $1', [ws.id]));
});

async function webhookFor(events: string[] = ['task.created']): Promise<NewWebhook> {
  const response = await hooks().create(ws.owner.accessToken, ws.slug, { url: receiverUrl, events });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function createTask(title: string) {
  const response = await taskCalls(api.app).create(ws.member.accessToken, ws, key, { title });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

interface DeliveryRow extends Record<string, unknown> {
  id: string;
  status: string;
  attempts: number;
  retry_step: number;
  next_attempt_at: Date | null;
  last_response_code: number | null;
  last_error: string | null;
}

async function deliveriesOf(webhookId: string): Promise<DeliveryRow[]> {
  return asService(api.db, (sql) =>
    sql.query<DeliveryRow>(
      `select id, status, attempts, retry_step, next_attempt_at, last_response_code, last_error
       from public.webhook_deliveries where webhook_id = $1 order by created_at`,
      [webhookId],
    ),
  );
}

/** Makes the webhook's deliveries due now, as the clock reaching their next attempt would. */
const makeDue = (webhookId: string) =>
  asService(api.db, (sql) =>
    sql.query(
      `update public.webhook_deliveries set next_attempt_at = now() - interval '1 second'
       where webhook_id = $1 and status in ('pending', 'retrying')`,
      [webhookId],
    ),
  );

const verify = (secret: string, delivery: Received) =>
  new StandardWebhook(secret).verify(delivery.body, {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  });

describe('sending', () => {
  it('delivers a committed event once, signed so that the standard library verifies it', async () => {
    const webhook = await webhookFor();
    const task = await createTask('Signed delivery');

    const run = await dispatchDue(deps(), 5_000);

    expect(run).toEqual({ sent: 1, succeeded: 1 });
    expect(received).toHaveLength(1);
    const [delivery] = received;
    if (!delivery) throw new Error('nothing received');
    expect(verify(webhook.secret, delivery)).toMatchObject({
      type: 'task.created',
      data: { object: 'event', type: 'task.created', task_id: task.id, data: { title: 'Signed delivery' } },
    });
    const [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      last_response_code: 200,
      next_attempt_at: null,
    });
    expect(delivery.headers['webhook-id']).toBe(row?.id);
    expect(await dispatchDue(deps(), 5_000)).toEqual({ sent: 0, succeeded: 0 });
  });

  it('after a rotation, both secrets sign, and each verifies on its own', async () => {
    const webhook = await webhookFor();
    const rotated = await hooks().rotate(ws.owner.accessToken, ws.slug, webhook.id);
    const newSecret = rotated.body.secret;
    await createTask('Rotated');
    await dispatchDue(deps(), 5_000);
    const [delivery] = received;
    if (!delivery) throw new Error('nothing received');
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verify(webhook.secret, delivery)).not.toThrow();
    expect(() => verify(newSecret, delivery)).not.toThrow();
  });

  it('a ping goes even to a webhook that is switched off', async () => {
    const webhook = await webhookFor();
    await hooks().update(ws.owner.accessToken, ws.slug, webhook.id, { active: false });
    expect((await hooks().test(ws.owner.accessToken, ws.slug, webhook.id)).status).toBe(202);
    await dispatchDue(deps(), 5_000);
    expect(received.map((r) => JSON.parse(r.body).type)).toEqual(['ping']);
  });
});

describe('failures, on the schedule', () => {
  it('500, a timeout, a refused connection and a 429 each wait their turn; the schedule is kept', async () => {
    const webhook = await webhookFor();
    await createTask('Failing');
    script = [{ status: 500 }, 'hang'];

    await dispatchDue(deps(), 5_000);
    let [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: 'retrying', attempts: 1, retry_step: 1, last_response_code: 500 });
    expect(row?.next_attempt_at?.getTime()).toBe(NOW.getTime() + (RETRY_DELAYS_MS[0] ?? 0));

    await makeDue(webhook.id);
    await dispatchDue(deps(), 5_000);
    [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: 'retrying', attempts: 2, retry_step: 2, last_response_code: null });
    expect(row?.last_error).toMatch(/^timeout/);
    expect(row?.next_attempt_at?.getTime()).toBe(NOW.getTime() + (RETRY_DELAYS_MS[1] ?? 0));

    const closed = recordingConnector();
    await makeDue(webhook.id);
    await dispatchDue(deps({ connect: closed.connect }), 5_000);
    [row] = await deliveriesOf(webhook.id);
    expect(row?.last_error).toMatch(/^connection_failed/);
    expect(row?.next_attempt_at?.getTime()).toBe(NOW.getTime() + (RETRY_DELAYS_MS[2] ?? 0));

    // Retry-After longer than the schedule's next wait (2 h) wins.
    script = [{ status: 429, headers: { 'Retry-After': String(3 * 3600) } }];
    await makeDue(webhook.id);
    await dispatchDue(deps(), 5_000);
    [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: 'retrying', retry_step: 4, last_response_code: 429 });
    expect(row?.next_attempt_at?.getTime()).toBe(NOW.getTime() + 3 * 3600 * 1000);

    await makeDue(webhook.id);
    await dispatchDue(deps(), 5_000);
    [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({
      status: 'succeeded',
      attempts: 5,
      last_response_code: 200,
      last_error: null,
    });
  });

  it('the tenth failed try fails the delivery for good', async () => {
    const webhook = await webhookFor();
    await createTask('Last try');
    await asService(api.db, (sql) =>
      sql.query('update public.webhook_deliveries set retry_step = 9, attempts = 9 where webhook_id = $1', [
        webhook.id,
      ]),
    );
    script = [{ status: 502 }];
    await dispatchDue(deps(), 5_000);
    const [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 10, retry_step: 10, next_attempt_at: null });
  });

  it('a body over 256 KiB is never sent, and fails at once instead of retrying for 3 days', async () => {
    const webhook = await webhookFor(['task.updated']);
    const task = await createTask('Oversized');
    await asService(api.db, (sql) =>
      sql.query(
        `select private.append_event($1::uuid, null, $2::uuid, 'task.updated',
           jsonb_build_object('padding', repeat('x', 300000)))`,
        [ws.id, task.id],
      ),
    );
    expect(await dispatchDue(deps(), 5_000)).toEqual({ sent: 1, succeeded: 0 });
    expect(received).toEqual([]);
    const [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      next_attempt_at: null,
      last_response_code: null,
    });
    expect(row?.last_error).toMatch(/^not sent: the body is 3\d{5} bytes, over 256 KiB$/);
  });

  it('410 Gone fails the delivery and switches the webhook off', async () => {
    const webhook = await webhookFor();
    await createTask('Gone');
    script = [{ status: 410 }];
    await dispatchDue(deps(), 5_000);
    expect((await deliveriesOf(webhook.id))[0]).toMatchObject({ status: 'failed', last_response_code: 410 });
    const read = await hooks().get(ws.owner.accessToken, ws.slug, webhook.id);
    expect(read.body).toMatchObject({ active: false, disabled_reason: 'gone' });
    await createTask('Not sent');
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
  });

  it('a webhook failing for 3 days is switched off and its owners and admins are mailed', async () => {
    const webhook = await webhookFor();
    await createTask('Three days');
    await asService(api.db, (sql) =>
      sql.query(`update public.webhooks set failing_since = now() - interval '73 hours' where id = $1`, [
        webhook.id,
      ]),
    );
    script = [{ status: 500 }];
    await dispatchDue(deps(), 5_000);
    const read = await hooks().get(ws.owner.accessToken, ws.slug, webhook.id);
    expect(read.body).toMatchObject({ active: false, disabled_reason: 'failing' });
    const mail = await asService(api.db, (sql) =>
      sql.query<{ user_id: string; subject: string; text: string }>(
        `select user_id, mail ->> 'subject' as subject, mail ->> 'text' as text from private.mail_outbox
         where user_id = any($1::uuid[]) and mail ->> 'subject' = 'A webhook was switched off'`,
        [[ws.owner.id, ws.admin.id, ws.member.id]],
      ),
    );
    expect(mail.map((m) => m.user_id).sort()).toEqual([ws.owner.id, ws.admin.id].sort());
    expect(mail[0]?.text).toContain(`https://app.tasklane.test/w/${ws.slug}/settings/webhooks`);

    const back = await hooks().update(ws.owner.accessToken, ws.slug, webhook.id, { active: true });
    expect(back.body).toMatchObject({ active: true, disabled_reason: null });
  });

  it('a success ends a failing streak', async () => {
    const webhook = await webhookFor();
    await createTask('Streak');
    script = [{ status: 500 }];
    await dispatchDue(deps(), 5_000);
    const failingSince = () =>
      asService(api.db, (sql) =>
        sql.query<{ failing_since: Date | null }>('select failing_since from public.webhooks where id = $1', [
          webhook.id,
        ]),
      ).then(([row]) => row?.failing_since ?? null);
    expect(await failingSince()).not.toBeNull();
    await makeDue(webhook.id);
    await dispatchDue(deps(), 5_000);
    expect(await failingSince()).toBeNull();
  });
});

describe('at send time', () => {
  it('a URL that now points at a private address is refused, and never connected to', async () => {
    const webhook = await webhookFor();
    await createTask('Rebound');
    await asService(api.db, (sql) =>
      sql.query(`update public.webhooks set url = 'https://rebind.example.com/hook' where id = $1`, [
        webhook.id,
      ]),
    );
    const network = recordingConnector();
    const resolver = fakeResolver({ 'rebind.example.com': ['10.0.0.5'] });
    await dispatchDue(
      deps({ connect: network.connect, resolve: resolver.resolve, allowLoopbackHttp: false }),
      5_000,
    );
    expect(network.attempts).toEqual([]);
    expect(resolver.asked).toEqual(['rebind.example.com']);
    const [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: 'retrying' });
    expect(row?.last_error).toMatch(/^refused/);
  });

  it('a claim whose dispatcher died is sent once its lease ends, with the same webhook-id', async () => {
    const webhook = await webhookFor();
    await createTask('Orphaned claim');
    const [claimed] = await api.db.serviceStatements((sql) => claimDueDeliveries(sql, 10, 60));
    expect(claimed?.webhook_id).toBe(webhook.id);
    expect(await dispatchDue(deps(), 5_000)).toEqual({ sent: 0, succeeded: 0 });

    await makeDue(webhook.id);
    await dispatchDue(deps(), 5_000);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([claimed?.delivery_id]);

    const again = await hooks().redeliver(
      ws.owner.accessToken,
      ws.slug,
      webhook.id,
      claimed?.delivery_id ?? '',
    );
    expect(again.status).toBe(202);
    await dispatchDue(deps(), 5_000);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([
      claimed?.delivery_id,
      claimed?.delivery_id,
    ]);
    expect(received[1]?.body).toBe(received[0]?.body);
  });
});
