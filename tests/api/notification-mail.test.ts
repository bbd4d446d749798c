/**
 * Notification mail (docs/decisions/0048): the scheduler's POST /v1/internal/notification-mail
 * batches a person's "at once" notifications and sends the daily digest through the mail outbox; each mail
 * carries a signed one-click unsubscribe (RFC 8058), POST /v1/notification-unsubscribe/{token}.
 *
 * Every run reads everyone due in the file's database, so each test works in a workspace of its own and
 * looks at the mail sent to its own people; the tests leave nothing due "at once" behind them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { toBase64url } from '../../supabase/functions/_shared/base64url.ts';
import type { Mailer, OutgoingMail } from '../../supabase/functions/_shared/mail/mailer.ts';
import { mentionOf } from '../../supabase/functions/_shared/mentions.ts';
import { signUnsubscribeToken } from '../../supabase/functions/api/notification-mail/unsubscribe-token.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import { apiClient, bearer, responseOf } from '../support/api-client.ts';
import {
  createTestApp,
  RATE_LIMITS_OUT_OF_THE_WAY,
  TEST_API_URL,
  TEST_APP_URL,
  useTestApp,
  type TestApp,
} from '../support/api-app.ts';
import { callApi, expectProblem, type ApiResponse } from '../support/api-request.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { notificationCalls, type Notification } from '../support/notification-calls.ts';
import { asService } from '../support/service-transaction.ts';
import { projectIn, taskCalls, type CreateTask, type Task } from '../support/task-calls.ts';
import { createTestUser, type TestUser } from '../support/test-users.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const SERVICE_KEY = `sb_secret_${randomUUID()}`;
const RUN_PATH = '/api/v1/internal/notification-mail';

/** Every mail handed to the relay, sent or not; `sent` only those it took. */
const attempted: OutgoingMail[] = [];
const sent: OutgoingMail[] = [];
let relayDown = false;
const mailer: Mailer = {
  send: (mail) => {
    attempted.push(mail);
    if (relayDown) return Promise.reject(new Error('relay down'));
    sent.push(mail);
    return Promise.resolve();
  },
};

/** No batching: what is due "at once" goes with the next run. */
const api = useTestApp({
  mailer,
  serviceKey: SERVICE_KEY,
  notificationMailBatchSeconds: 0,
  rateLimits: RATE_LIMITS_OUT_OF_THE_WAY,
});

const notes = () => notificationCalls(api.app);
const sentTo = (user: TestUser) => sent.filter((mail) => mail.to === user.email);

type Run = components['schemas']['NotificationMailRun'];

function callRun(app: Hono<AppEnv>, authorization?: string): Promise<ApiResponse> {
  return callApi(app, RUN_PATH, {
    method: 'POST',
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });
}

async function run(app: Hono<AppEnv> = api.app): Promise<Run> {
  const response = await responseOf(
    apiClient(app).POST('/v1/internal/notification-mail', { headers: bearer(SERVICE_KEY) }),
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function board(): Promise<{ ws: WorkspaceFixture; key: string }> {
  const ws = await createWorkspaceWithRoles(api.db);
  return { ws, key: (await projectIn(api.app, ws)).key };
}

async function taskBy(
  by: TestUser,
  ws: WorkspaceFixture,
  key: string,
  fields: Partial<CreateTask> = {},
): Promise<Task> {
  const response = await taskCalls(api.app).create(by.accessToken, ws, key, {
    title: 'Fix the login',
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function commentBy(by: TestUser, taskId: string, body: string) {
  const response = await commentCalls(api.app).create(by.accessToken, taskId, { body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function inboxOf(user: TestUser): Promise<Notification[]> {
  const response = await notes().list(user.accessToken);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

async function setDeliveries(user: TestUser, deliveries: Record<string, string>) {
  const response = await notes().raw.updateSettings(user.accessToken, { deliveries });
  expect(response.status, response.text).toBe(200);
}

async function deliveriesOf(user: TestUser): Promise<Record<string, string>> {
  const response = await notes().settings(user.accessToken);
  expect(response.status, response.text).toBe(200);
  return response.body.deliveries;
}

async function addMember(ws: WorkspaceFixture, user: TestUser): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'member')`, [
      ws.id,
      user.id,
    ]),
  );
}

async function setTimeZone(user: TestUser, zone: string): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query('update public.profiles set time_zone = $2 where user_id = $1', [user.id, zone]),
  );
}

interface MailState extends Record<string, unknown> {
  type: string;
  email_delivery: string | null;
  emailed: boolean;
}

function mailStateOf(user: TestUser): Promise<MailState[]> {
  return asService(api.db, (sql) =>
    sql.query<MailState>(
      `select type, email_delivery, emailed_at is not null as emailed from public.notifications
       where user_id = $1 order by created_at, id`,
      [user.id],
    ),
  );
}

interface OutboxRow extends Record<string, unknown> {
  sent: boolean;
  has_mail: boolean;
  attempts: number;
}

function outboxOf(user: TestUser): Promise<OutboxRow[]> {
  return asService(api.db, (sql) =>
    sql.query<OutboxRow>(
      `select sent_at is not null as sent, mail is not null as has_mail, attempts
       from private.mail_outbox where user_id = $1 order by created_at`,
      [user.id],
    ),
  );
}

/** Moves the person's notifications `interval` into the past. */
async function backdate(user: TestUser, interval: string): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `update public.notifications set created_at = created_at - $2::interval,
         updated_at = updated_at - $2::interval where user_id = $1`,
      [user.id, interval],
    ),
  );
}

/** The token of the mail's one-click unsubscribe link. */
function tokenOf(mail: OutgoingMail | undefined): string {
  const header = mail?.headers?.['List-Unsubscribe'] ?? '';
  const token = /\/v1\/notification-unsubscribe\/([^>]+)>$/.exec(header)?.[1];
  if (!token) throw new Error(`no unsubscribe token in ${header}`);
  return token;
}

function unsubscribeCall(token: string, init: RequestInit = {}): Promise<ApiResponse> {
  return callApi(api.app, `/api/v1/notification-unsubscribe/${token}`, { method: 'POST', ...init });
}

const ONE_CLICK: RequestInit = {
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: 'List-Unsubscribe=One-Click',
};

/** An `Etc/GMT±N` zone in which the local hour is now about `hour` (Etc/GMT-3 is UTC+3). */
function zoneWithLocalHour(hour: number): string {
  let offset = (((hour - new Date().getUTCHours()) % 24) + 24) % 24;
  if (offset > 14) offset -= 24;
  if (offset === 0) return 'Etc/GMT';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** The date `days` from today in `zone`, as YYYY-MM-DD. */
function localDate(zone: string, days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

describe('POST /v1/internal/notification-mail', () => {
  it('answers 401 without the secret key', async () => {
    const ws = await createWorkspaceWithRoles(api.db);

    const none = await callRun(api.app);
    expectProblem(none, 401, 'unauthenticated');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');

    const wrong = await callRun(api.app, `Bearer ${SERVICE_KEY}x`);
    expectProblem(wrong, 401, 'unauthenticated');
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');

    const person = await callRun(api.app, `Bearer ${ws.owner.accessToken}`);
    expectProblem(person, 401, 'unauthenticated');
    expect(person.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('answers 401 to every key when the instance has none', async () => {
    const keyless = createTestApp(api.databaseUrl, { mailer });
    try {
      const response = await callRun(keyless.app, `Bearer ${SERVICE_KEY}`);
      expectProblem(response, 401, 'unauthenticated');
      expect(response.headers.get('www-authenticate')).toContain('invalid_token');
    } finally {
      await keyless.close();
    }
    const empty = await callRun(api.app, 'Bearer ');
    expectProblem(empty, 401, 'unauthenticated');
    expect(empty.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 200 with what the run did, with the secret key', async () => {
    const response = await callRun(api.app, `Bearer ${SERVICE_KEY}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'notification_mail_run',
      queued: expect.any(Number),
      sent: expect.any(Number),
    });
  });
});

describe('mail at once', () => {
  it('mails a mention once, with the comment, the links and a one-click unsubscribe', async () => {
    const { ws, key } = await board();
    const bold = await createTestUser(api.db, {
      email: `bold-${randomUUID().slice(0, 8)}@example.com`,
      displayName: 'Bo <b>ld</b>',
    });
    await addMember(ws, bold);
    const task = await taskBy(ws.owner, ws, key, { title: 'Fix the login' });
    const body = `Look ${mentionOf(ws.member.id)}, ${mentionOf(bold.id)} and ${mentionOf(ws.outsider.id)}`;
    const comment = await commentBy(ws.owner, task.id, body);
    sent.length = 0;

    expect(await run()).toEqual({ object: 'notification_mail_run', queued: 2, sent: 2 });

    const mails = sentTo(ws.member);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const token = tokenOf(mail);
    expect(mail?.subject).toBe(`owner mentioned you on ${task.key}: Fix the login`);
    const link = `${TEST_APP_URL}/w/${ws.slug}/p/${key}/t/${task.number}#comment-${comment.id}`;
    expect(mail?.text).toContain(`owner mentioned you on ${task.key}`);
    expect(mail?.text).toContain('> Look @member, @Bo <b>ld</b> and @former member');
    expect(mail?.text).not.toContain('<@');
    expect(mail?.text).toContain(link);
    expect(mail?.text).toContain(`${TEST_APP_URL}/unsubscribe/${token}`);
    expect(mail?.headers).toEqual({
      'List-Unsubscribe': `<${TEST_API_URL}/v1/notification-unsubscribe/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail?.html).toContain('@Bo &lt;b&gt;ld&lt;/b&gt;');
    expect(mail?.html).not.toContain('<b>');

    // The other member mentioned gets theirs; the outsider nothing.
    expect(sent.filter((m) => m.to === bold.email)).toHaveLength(1);
    expect(sent.filter((m) => m.to === ws.outsider.email)).toEqual([]);

    // No second mail.
    expect(await run()).toEqual({ object: 'notification_mail_run', queued: 0, sent: 0 });
    expect(sentTo(ws.member)).toHaveLength(1);
    expect(await outboxOf(ws.member)).toEqual([{ sent: true, has_mail: false, attempts: 1 }]);
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'mentioned', email_delivery: 'now', emailed: true },
    ]);
  });

  it('escapes what people wrote in the html, and quotes a long comment shortened', async () => {
    const { ws, key } = await board();
    const bold = await createTestUser(api.db, {
      email: `bold-${randomUUID().slice(0, 8)}@example.com`,
      displayName: 'Bo <b>ld</b>',
    });
    await addMember(ws, bold);
    const slash = await createTestUser(api.db, {
      email: `slash-${randomUUID().slice(0, 8)}@example.com`,
      displayName: 'Back\\slash \\1 & $1',
    });
    await addMember(ws, slash);
    const task = await taskBy(ws.owner, ws, key, { title: 'Fix <i>it</i> & "more"' });
    await commentBy(bold, task.id, `${mentionOf(ws.member.id)} ${'x'.repeat(400)}`);
    await commentBy(bold, task.id, `${mentionOf(slash.id)} see`);

    await run();
    const [mail] = sentTo(ws.member);
    expect(mail?.subject).toBe(`Bo <b>ld</b> mentioned you on ${task.key}: Fix <i>it</i> & "more"`);
    expect(mail?.html).toContain(`Bo &lt;b&gt;ld&lt;/b&gt; mentioned you on ${task.key}`);
    expect(mail?.html).toContain('Fix &lt;i&gt;it&lt;/i&gt; &amp; &quot;more&quot;');
    expect(mail?.html).not.toMatch(/<b>|<i>/);
    const excerpt = mail?.text.split('\n').find((line) => line.startsWith('> '));
    expect(excerpt).toBe(`> @member ${'x'.repeat(280 - '@member '.length - 1)}…`);
    // A name is put in as written, whatever characters it holds.
    const [toSlash] = sent.filter((m) => m.to === slash.email);
    expect(toSlash?.text).toContain('> @Back\\slash \\1 & $1 see');
  });

  it('mails once when two runs go at the same time', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} once`);

    const runs = await Promise.all([run(), run(), run()]);
    expect(runs.reduce((sum, r) => sum + r.queued, 0)).toBe(1);
    expect(runs.reduce((sum, r) => sum + r.sent, 0)).toBe(1);
    expect(sentTo(ws.member)).toHaveLength(1);
    expect(await outboxOf(ws.member)).toEqual([{ sent: true, has_mail: false, attempts: 1 }]);
  });

  it('mails a mention folded into one already mailed, saying how many', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} first`);
    expect(await run()).toMatchObject({ queued: 1, sent: 1 });

    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} again`);
    const [folded] = await inboxOf(ws.member);
    expect(folded).toMatchObject({ type: 'mentioned', change_count: 2 });
    expect(await run()).toMatchObject({ queued: 1, sent: 1 });

    const mails = sentTo(ws.member);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.text).toContain(`owner mentioned you 2 times on ${task.key}`);
    expect(mails[1]?.text).toContain('again');
  });

  it('tells two mentions on two tasks in one mail', async () => {
    const { ws, key } = await board();
    const first = await taskBy(ws.owner, ws, key, { title: 'First' });
    const second = await taskBy(ws.owner, ws, key, { title: 'Second' });
    await commentBy(ws.owner, first.id, `${mentionOf(ws.member.id)} one`);
    await commentBy(ws.owner, second.id, `${mentionOf(ws.member.id)} two`);

    expect(await run()).toMatchObject({ queued: 1, sent: 1 });

    const mails = sentTo(ws.member);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('2 new notifications in Tasklane');
    expect(mails[0]?.text).toContain(`owner mentioned you on ${first.key}`);
    expect(mails[0]?.text).toContain(`owner mentioned you on ${second.key}`);
    expect(await outboxOf(ws.member)).toHaveLength(1);
  });

  describe('with the default batch window of 2 minutes', () => {
    let batching: TestApp | undefined;
    afterAll(() => batching?.close());

    it('waits for the oldest notification to be 2 minutes old', async () => {
      batching = createTestApp(api.databaseUrl, { mailer, serviceKey: SERVICE_KEY });
      const { ws, key } = await board();
      const task = await taskBy(ws.owner, ws, key);
      await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} soon`);

      expect(await run(batching.app)).toMatchObject({ queued: 0 });
      expect(sentTo(ws.member)).toEqual([]);
      expect(await mailStateOf(ws.member)).toEqual([
        { type: 'mentioned', email_delivery: 'now', emailed: false },
      ]);

      await backdate(ws.member, '3 minutes');
      expect(await run(batching.app)).toMatchObject({ queued: 1, sent: 1 });
      expect(sentTo(ws.member)).toHaveLength(1);
    });
  });

  it('sends nothing for what was read before the run', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} read me`);
    const [notification] = await inboxOf(ws.member);
    const read = await notes().update(ws.member.accessToken, notification?.id ?? '', { read: true });
    expect(read.status, read.text).toBe(200);

    expect(await run()).toEqual({ object: 'notification_mail_run', queued: 0, sent: 0 });
    expect(sentTo(ws.member)).toEqual([]);
    expect(await outboxOf(ws.member)).toEqual([]);
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'mentioned', email_delivery: 'now', emailed: true },
    ]);
  });

  it('sends nothing for what was archived before the run', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} archive me`);
    const [notification] = await inboxOf(ws.member);
    const archived = await notes().update(ws.member.accessToken, notification?.id ?? '', { archived: true });
    expect(archived.status, archived.text).toBe(200);

    expect(await run()).toEqual({ object: 'notification_mail_run', queued: 0, sent: 0 });
    expect(sentTo(ws.member)).toEqual([]);
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'mentioned', email_delivery: 'now', emailed: true },
    ]);
  });

  it('does not quote a comment deleted before the run', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const words = `regretted-${randomUUID()}`;
    const comment = await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} ${words}`);
    const removed = await commentCalls(api.app).remove(ws.owner.accessToken, comment.id);
    expect(removed.status, removed.text).toBeLessThan(300);

    await run();
    const mails = sentTo(ws.member);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).not.toContain(words);
    expect(mails[0]?.text).not.toContain('\n> ');
    expect(mails[0]?.html).not.toContain(words);
  });

  it('follows the settings: inbox is never mailed, email_digest not at once', async () => {
    const { ws, key } = await board();
    await setDeliveries(ws.member, { mentioned: 'inbox' });
    await setDeliveries(ws.admin, { mentioned: 'email_digest' });
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} ${mentionOf(ws.admin.id)}`);

    await run();
    expect(sentTo(ws.member)).toEqual([]);
    expect(sentTo(ws.admin)).toEqual([]);
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'mentioned', email_delivery: null, emailed: false },
    ]);
    expect(await mailStateOf(ws.admin)).toEqual([
      { type: 'mentioned', email_delivery: 'digest', emailed: false },
    ]);
  });
});

describe('the daily digest', () => {
  /** A `commented` notification for the member, whose setting for it is email_digest, from yesterday. */
  async function commentedYesterday(zone: string) {
    const { ws, key } = await board();
    await setDeliveries(ws.member, { commented: 'email_digest' });
    await setTimeZone(ws.member, zone);
    const task = await taskBy(ws.member, ws, key, { title: 'Watched' });
    await commentBy(ws.owner, task.id, 'A comment');
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'commented', email_delivery: 'digest', emailed: false },
    ]);
    await backdate(ws.member, '1 day');
    return { ws, task };
  }

  it('goes once 08:00 has come in the person’s time zone', async () => {
    const { ws, task } = await commentedYesterday(zoneWithLocalHour(12));

    await run();
    const mails = sentTo(ws.member);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Your Tasklane digest: 1 new notification');
    expect(mails[0]?.text).toContain(`owner commented on ${task.key}`);
    expect(mails[0]?.text).toContain('> A comment');
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'commented', email_delivery: 'digest', emailed: true },
    ]);

    await run();
    expect(sentTo(ws.member)).toHaveLength(1);
  });

  it('waits for 08:00 in the person’s time zone', async () => {
    const { ws } = await commentedYesterday(zoneWithLocalHour(5));

    await run();
    expect(sentTo(ws.member)).toEqual([]);
    expect(await mailStateOf(ws.member)).toEqual([
      { type: 'commented', email_delivery: 'digest', emailed: false },
    ]);
  });

  it('gets the due_soon reminder of a task due tomorrow, not at once', async () => {
    const { ws, key } = await board();
    const zone = 'Etc/GMT-3';
    await setTimeZone(ws.member, zone);
    const dueDate = localDate(zone, 1);
    const task = await taskBy(ws.owner, ws, key, { assignee_id: ws.member.id, due_date: dueDate });
    await run(); // the assignment's mail
    const before = sentTo(ws.member).length;

    await run();

    const dueSoon = (await inboxOf(ws.member)).filter((n) => n.type === 'due_soon');
    expect(dueSoon).toEqual([
      expect.objectContaining({
        type: 'due_soon',
        due_date: dueDate,
        task: expect.objectContaining({ id: task.id }),
      }),
    ]);
    expect(sentTo(ws.member)).toHaveLength(before);
    expect((await mailStateOf(ws.member)).filter((n) => n.type === 'due_soon')).toEqual([
      { type: 'due_soon', email_delivery: 'digest', emailed: false },
    ]);
  });
});

describe('POST /v1/notification-unsubscribe/{token}', () => {
  /** A mention of `to` by the owner on a new task, and a run: the mail it sent. */
  async function mentionMail(ws: WorkspaceFixture, key: string, to: TestUser): Promise<OutgoingMail> {
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, `${mentionOf(to.id)} hi`);
    const before = sentTo(to).length;
    await run();
    const mails = sentTo(to);
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1);
    if (!mail) throw new Error('no mail');
    return mail;
  }

  it('turns the mail off in one click, without credentials; the inbox still tells', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));

    const response = await unsubscribeCall(token, ONE_CLICK);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ object: 'mail_unsubscribed', types: ['mentioned'] });
    const deliveries = await deliveriesOf(ws.member);
    expect(deliveries).toMatchObject({ mentioned: 'inbox', assigned: 'email_now' });

    const task = await taskBy(ws.owner, ws, key, { title: 'After' });
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} again`);
    await run();
    expect(sentTo(ws.member)).toHaveLength(1);
    expect((await inboxOf(ws.member)).map((n) => [n.type, n.task?.id])).toContainEqual([
      'mentioned',
      task.id,
    ]);

    // Again: the same answer, nothing more changes.
    const again = await unsubscribeCall(token, ONE_CLICK);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ object: 'mail_unsubscribed', types: ['mentioned'] });
    expect(await deliveriesOf(ws.member)).toEqual(deliveries);
  });

  it('accepts an empty body and a JSON one', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));
    const empty = await unsubscribeCall(token);
    expect(empty.status, empty.text).toBe(200);
    const json = await unsubscribeCall(token, {
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(json.status, json.text).toBe(200);
    expect((await deliveriesOf(ws.member)).mentioned).toBe('inbox');
  });

  it('accepts the one-click form as multipart/form-data', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const response = await unsubscribeCall(token, { body: form });
    expect(response.status, response.text).toBe(200);
    expect((await deliveriesOf(ws.member)).mentioned).toBe('inbox');
  });

  it('turns off every type the mail told of', async () => {
    const { ws, key } = await board();
    const mentioning = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, mentioning.id, `${mentionOf(ws.member.id)} look`);
    await taskBy(ws.owner, ws, key, { title: 'Yours', assignee_id: ws.member.id });
    await run();
    const mails = sentTo(ws.member);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('2 new notifications in Tasklane');

    const response = await unsubscribeCall(tokenOf(mails[0]), ONE_CLICK);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ object: 'mail_unsubscribed', types: expect.any(Array) });
    expect(new Set(JSON.parse(response.text).types)).toEqual(new Set(['mentioned', 'assigned']));
    expect(await deliveriesOf(ws.member)).toMatchObject({
      mentioned: 'inbox',
      assigned: 'inbox',
      due_soon: 'email_digest',
    });
  });

  it('keeps the token out of the logs', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));
    const [payload = '', signature = ''] = token.split('.');
    expect((await unsubscribeCall(token, ONE_CLICK)).status).toBe(200);

    const unsubscribes = api.logs.entries.filter((entry) =>
      String(entry.path).includes('/v1/notification-unsubscribe/'),
    );
    expect(unsubscribes.length).toBeGreaterThan(0);
    const holdingIt = api.logs.entries
      .filter((entry) => [signature, payload].some((part) => JSON.stringify(entry).includes(part)))
      .map((entry) => entry.path);
    expect(holdingIt).toEqual([]);
  });

  it('answers 415 to a body that is neither the form nor JSON, and changes nothing', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));
    const response = await unsubscribeCall(token, {
      headers: { 'Content-Type': 'text/plain' },
      body: 'List-Unsubscribe=One-Click',
    });
    expectProblem(response, 415, 'unsupported_media_type');
    expect((await deliveriesOf(ws.member)).mentioned).toBe('email_now');
  });

  it('answers 404 to a token longer than any it signs', async () => {
    const response = await unsubscribeCall(`${'a'.repeat(300)}.${'b'.repeat(300)}`, ONE_CLICK);
    expectProblem(response, 404, 'not_found');
  });

  it('answers 404 to a token it did not sign, and changes nothing', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));
    const [payload = '', signature = ''] = token.split('.');
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const flippedSignature = `${payload}.${flip(signature[0] ?? '')}${signature.slice(1)}`;
    const otherPayload = toBase64url(
      new TextEncoder().encode(JSON.stringify({ v: 1, u: ws.owner.id, t: ['mentioned'] })),
    );
    const otherTypes = toBase64url(
      new TextEncoder().encode(JSON.stringify({ v: 1, u: ws.member.id, t: ['mentioned', 'assigned'] })),
    );
    const otherKey = await signUnsubscribeToken(new Uint8Array(randomBytes(32)), {
      userId: ws.member.id,
      types: ['mentioned'],
    });

    for (const bad of [
      flippedSignature,
      `${otherPayload}.${signature}`,
      `${otherTypes}.${signature}`,
      otherKey,
      'not-a-token',
      `${token}.x`,
      `${payload}.`,
    ]) {
      const response = await unsubscribeCall(encodeURIComponent(bad), ONE_CLICK);
      expectProblem(response, 404, 'not_found');
    }
    expect((await deliveriesOf(ws.member)).mentioned).toBe('email_now');
    expect((await deliveriesOf(ws.owner)).mentioned).toBe('email_now');
  });

  it('leaves a type that was turned off off', async () => {
    const { ws, key } = await board();
    const token = tokenOf(await mentionMail(ws, key, ws.member));
    await setDeliveries(ws.member, { mentioned: 'off' });

    const response = await unsubscribeCall(token, ONE_CLICK);
    expect(response.status, response.text).toBe(200);
    expect((await deliveriesOf(ws.member)).mentioned).toBe('off');
  });
});

describe('a relay that fails', () => {
  it('keeps the mail in the outbox and sends it after the back-off, logging none of it', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const secretWords = `secret-words-${randomUUID()}`;
    await commentBy(ws.owner, task.id, `${mentionOf(ws.member.id)} ${secretWords}`);
    relayDown = true;
    let failed: Run;
    try {
      failed = await run();
    } finally {
      relayDown = false;
    }
    expect(failed).toEqual({ object: 'notification_mail_run', queued: 1, sent: 0 });
    expect(sentTo(ws.member)).toEqual([]);
    expect(await outboxOf(ws.member)).toEqual([{ sent: false, has_mail: true, attempts: 1 }]);
    const tried = attempted.filter((mail) => mail.to === ws.member.email);
    expect(tried).toHaveLength(1);

    const logged = JSON.stringify(api.logs.entries);
    expect(logged).toContain('notification mail not sent');
    expect(logged).not.toContain(tokenOf(tried[0]));
    expect(logged).not.toContain(secretWords);
    expect(logged).not.toContain(tried[0]?.subject ?? '');

    // Not before the back-off.
    expect(await run()).toMatchObject({ sent: 0 });
    expect(sentTo(ws.member)).toEqual([]);

    await asService(api.db, (sql) =>
      sql.query('update private.mail_outbox set next_attempt_at = now() where user_id = $1', [ws.member.id]),
    );
    expect(await run()).toEqual({ object: 'notification_mail_run', queued: 0, sent: 1 });
    expect(sentTo(ws.member)).toHaveLength(1);
    expect(sentTo(ws.member)[0]?.text).toContain(secretWords);
    expect(await outboxOf(ws.member)).toEqual([{ sent: true, has_mail: false, attempts: 2 }]);
  });
});
