import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { mentionOf } from '../../supabase/functions/_shared/mentions.ts';
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { commentCalls } from '../support/comment-calls.ts';
import { acceptInvitation, invitationCalls, memberCalls } from '../support/membership-calls.ts';
import {
  notificationCalls,
  storedNotifications,
  storedWatchers,
  type Notification,
} from '../support/notification-calls.ts';
import { ISO_TIMESTAMP } from '../support/resource-calls.ts';
import { asService } from '../support/service-transaction.ts';
import { projectIn, taskCalls, taskIn, type CreateTask, type Task } from '../support/task-calls.ts';
import { createTestUser, type TestUser } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';

const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });

const notes = () => notificationCalls(api.app);
const tasks = () => taskCalls(api.app);
const comments = () => commentCalls(api.app);

/** A new workspace with one person in each role, and a project in it. */
async function board(): Promise<{ ws: WorkspaceFixture; key: string }> {
  const ws = await createWorkspaceWithRoles(api.db);
  return { ws, key: (await projectIn(api.app, ws)).key };
}

/** A task `by` creates through the API (its creator watches it). */
async function taskBy(
  by: TestUser,
  ws: WorkspaceFixture,
  key: string,
  fields: Partial<CreateTask> = {},
): Promise<Task> {
  const response = await tasks().create(by.accessToken, ws, key, { title: 'Fix the login', ...fields });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function commentBy(by: TestUser, taskId: string, body: string) {
  const response = await comments().create(by.accessToken, taskId, { body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The caller's notifications as the default list answers them. */
async function inboxOf(user: TestUser, query = ''): Promise<Notification[]> {
  const response = await notes().list(user.accessToken, query);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

async function unreadOf(user: TestUser): Promise<number> {
  const response = await notes().unreadCount(user.accessToken);
  expect(response.status, response.text).toBe(200);
  return response.body.unread;
}

const ofUser = (user: TestUser) => storedNotifications(api.db, 'n.user_id = $1', [user.id]);
const ofTask = (taskId: string) => storedNotifications(api.db, 'n.task_id = $1', [taskId]);

async function storedCommentBodies(taskId: string): Promise<(string | null)[]> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ body: string | null }>(
      'select body from public.comments where task_id = $1 order by created_at, id',
      [taskId],
    ),
  );
  return rows.map((row) => row.body);
}

async function addMember(ws: WorkspaceFixture, user: TestUser): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'member')`, [
      ws.id,
      user.id,
    ]),
  );
}

/** `count` mentions of random uuids (members of nothing), space-separated. */
const mentionsOfStrangers = (count: number) =>
  Array.from({ length: count }, () => mentionOf(randomUUID())).join(' ');

describe('mentions', () => {
  it("tells the member mentioned in the owner's comment, with the workspace, task, actor and comment", async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const comment = await commentBy(ws.owner, task.id, `Please look, ${mentionOf(ws.member.id)}`);

    const response = await notes().list(ws.member.accessToken);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: 'list', next_cursor: null });
    expect(response.body.data).toEqual([
      {
        object: 'notification',
        id: expect.any(String),
        type: 'mentioned',
        workspace: { id: ws.id, slug: ws.slug, name: 'Acme' },
        task: { id: task.id, key: task.key, title: 'Fix the login', status: task.status },
        actor: { id: ws.owner.id, display_name: 'owner' },
        comment: { id: comment.id, body: `Please look, ${mentionOf(ws.member.id)}` },
        change_count: 1,
        due_date: null,
        read_at: null,
        archived_at: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
      },
    ]);
    expect(await inboxOf(ws.owner)).toEqual([]);
    expect((await notes().unreadCount(ws.member.accessToken)).body).toEqual({
      object: 'unread_notification_count',
      unread: 1,
      more: false,
    });
    expect(await unreadOf(ws.owner)).toBe(0);
    expect(await ofTask(task.id)).toEqual([
      expect.objectContaining({
        user_id: ws.member.id,
        type: 'mentioned',
        actor_id: ws.owner.id,
        comment_id: comment.id,
        change_count: 1,
        read_at: null,
      }),
    ]);
  });

  it('stores a mention of a non-member and of a random uuid as sent, and tells nobody', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const body = `cc ${mentionOf(ws.outsider.id)} and ${mentionOf(randomUUID())}`;
    const response = await comments().create(ws.owner.accessToken, task.id, { body });
    expect(response.status).toBe(201);
    expect(response.body.body).toBe(body);
    expect(await storedCommentBodies(task.id)).toEqual([body]);
    expect(await ofTask(task.id)).toEqual([]);
    expect(await inboxOf(ws.outsider)).toEqual([]);
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.owner.id]);
  });

  it('refuses 51 mentions in a comment with 422 naming body, writing nothing; takes 50', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const problem = expectProblem(
      await comments().create(ws.owner.accessToken, task.id, { body: mentionsOfStrangers(51) }),
      422,
      'validation_failed',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['body.body']);
    expect(await storedCommentBodies(task.id)).toEqual([]);

    const fifty = `${mentionOf(ws.member.id)} ${mentionsOfStrangers(49)}`;
    const accepted = await comments().create(ws.owner.accessToken, task.id, { body: fifty });
    expect(accepted.status, accepted.text).toBe(201);
    expect(await storedCommentBodies(task.id)).toEqual([fifty]);
    expect((await ofTask(task.id)).map((n) => [n.user_id, n.type])).toEqual([[ws.member.id, 'mentioned']]);
  });

  it("refuses 51 mentions in a task's description on create and on PATCH; takes 50", async () => {
    const { ws, key } = await board();
    const before = (await tasks().list(ws.owner.accessToken, ws, key)).body.data.length;
    const refused = expectProblem(
      await tasks().create(ws.owner.accessToken, ws, key, {
        title: 'Too many',
        description: mentionsOfStrangers(51),
      }),
      422,
      'validation_failed',
    );
    expect(refused.errors?.map((error) => error.path)).toEqual(['body.description']);
    expect((await tasks().list(ws.owner.accessToken, ws, key)).body.data.length).toBe(before);

    const fifty = mentionsOfStrangers(50);
    const task = await taskBy(ws.owner, ws, key, { description: fifty });
    expect(task.description).toBe(fifty);

    const patchRefused = expectProblem(
      await tasks().update(ws.owner.accessToken, task.id, { description: mentionsOfStrangers(51) }),
      422,
      'validation_failed',
    );
    expect(patchRefused.errors?.map((error) => error.path)).toEqual(['body.description']);
    expect((await tasks().get(ws.owner.accessToken, task.id)).body.description).toBe(fifty);

    const other = `${mentionOf(ws.member.id)} ${mentionsOfStrangers(49)}`;
    const patched = await tasks().update(ws.owner.accessToken, task.id, { description: other });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.description).toBe(other);
    expect((await ofTask(task.id)).map((n) => [n.user_id, n.type])).toEqual([[ws.member.id, 'mentioned']]);
  });

  it("tells whoever is newly mentioned in a task's description, a comment's edit or in upper case, once", async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key, { description: `For ${mentionOf(ws.member.id)}` });
    expect((await ofTask(task.id)).map((n) => [n.user_id, n.type])).toEqual([[ws.member.id, 'mentioned']]);

    const comment = await commentBy(ws.owner, task.id, 'No one yet');
    const edited = await comments().update(ws.owner.accessToken, comment.id, {
      body: `Now <@${ws.viewer.id.toUpperCase()}>`,
    });
    expect(edited.status, edited.text).toBe(200);
    expect((await inboxOf(ws.viewer)).map((n) => [n.type, n.comment?.id])).toEqual([
      ['mentioned', comment.id],
    ]);

    // Editing again without a new mention tells nobody more; mentioning oneself tells nobody.
    await comments().update(ws.owner.accessToken, comment.id, {
      body: `Now <@${ws.viewer.id.toUpperCase()}>, really ${mentionOf(ws.owner.id)}`,
    });
    expect((await ofTask(task.id)).map((n) => [n.user_id, n.type, n.change_count])).toEqual([
      [ws.member.id, 'mentioned', 1],
      // Mentioned in the description, the member watches the task and heard of the comment.
      [ws.member.id, 'commented', 1],
      [ws.viewer.id, 'mentioned', 1],
    ]);
    expect(await inboxOf(ws.owner)).toEqual([]);
  });

  it('says mentions_per_text is 50 in GET /v1/meta/limits', async () => {
    const response = await callApi(api.app, '/api/v1/meta/limits');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ mentions_per_text: 50 });
  });
});

describe('assigned and commented', () => {
  it('tells the member assigned to a task with PATCH assignee_id', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const response = await tasks().update(ws.owner.accessToken, task.id, { assignee_id: ws.member.id });
    expect(response.status, response.text).toBe(200);
    expect(await inboxOf(ws.member)).toEqual([
      expect.objectContaining({
        type: 'assigned',
        task: expect.objectContaining({ id: task.id }),
        actor: { id: ws.owner.id, display_name: 'owner' },
        comment: null,
        change_count: 1,
        read_at: null,
      }),
    ]);
    expect((await ofTask(task.id)).map((n) => [n.user_id, n.type])).toEqual([[ws.member.id, 'assigned']]);
  });

  it('tells the assignee of a task created assigned, and nobody who assigns themself', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key, { assignee_id: ws.member.id });
    const own = await taskBy(ws.admin, ws, key, { assignee_id: ws.admin.id });
    expect((await ofTask(task.id)).map((n) => [n.user_id, n.type])).toEqual([[ws.member.id, 'assigned']]);
    expect(await ofTask(own.id)).toEqual([]);
    // Assigned and mentioned at once, the member is told once, of the mention.
    const both = await taskBy(ws.owner, ws, key, {
      assignee_id: ws.member.id,
      description: `For ${mentionOf(ws.member.id)}`,
    });
    expect((await ofTask(both.id)).map((n) => [n.user_id, n.type])).toEqual([[ws.member.id, 'mentioned']]);
  });

  it("folds the admin's three comments on a task the member watches into one, change_count 3", async () => {
    const { ws, key } = await board();
    const task = await taskIn(api.app, ws, key); // the member creates it, so watches it
    await commentBy(ws.admin, task.id, 'one');
    await commentBy(ws.admin, task.id, 'two');
    const third = await commentBy(ws.admin, task.id, 'three');
    expect(await inboxOf(ws.member)).toEqual([
      expect.objectContaining({
        type: 'commented',
        actor: { id: ws.admin.id, display_name: 'admin' },
        comment: { id: third.id, body: 'three' },
        change_count: 3,
      }),
    ]);
    expect(await unreadOf(ws.member)).toBe(1);
    const storedOfMember = async () =>
      (await storedNotifications(api.db, 'n.task_id = $1 and n.user_id = $2', [task.id, ws.member.id])).map(
        (n) => [n.type, n.change_count],
      );
    expect(await storedOfMember()).toEqual([['commented', 3]]);

    // Once read, it takes no more: the next comment is a new notification.
    const [folded] = await inboxOf(ws.member);
    expect((await notes().update(ws.member.accessToken, folded?.id ?? '', { read: true })).status).toBe(200);
    await commentBy(ws.admin, task.id, 'four');
    expect(await storedOfMember()).toEqual([
      ['commented', 3],
      ['commented', 1],
    ]);
    // Another actor's comment is not folded into the admin's.
    await commentBy(ws.owner, task.id, 'five');
    expect(await storedOfMember()).toEqual([
      ['commented', 3],
      ['commented', 1],
      ['commented', 1],
    ]);
    expect(await unreadOf(ws.member)).toBe(2);
  });

  it('folds only within 10 minutes: a comment after that is a new notification', async () => {
    const { ws, key } = await board();
    const task = await taskIn(api.app, ws, key);
    await commentBy(ws.admin, task.id, 'one');
    await asService(api.db, (sql) =>
      sql.query(
        `update public.notifications set updated_at = now() - interval '11 minutes', created_at = now() - interval '11 minutes'
         where user_id = $1`,
        [ws.member.id],
      ),
    );
    await commentBy(ws.admin, task.id, 'two');
    expect((await inboxOf(ws.member)).map((n) => [n.type, n.change_count, n.comment?.body])).toEqual([
      ['commented', 1, 'two'],
      ['commented', 1, 'one'],
    ]);
  });

  it('keeps a notification whose comment was deleted, its comment body null', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const comment = await commentBy(ws.admin, task.id, `hey ${mentionOf(ws.member.id)}`);
    expect((await comments().remove(ws.admin.accessToken, comment.id)).status).toBe(204);
    const list = await inboxOf(ws.member);
    expect(list.map((n) => [n.type, n.comment])).toEqual([['mentioned', { id: comment.id, body: null }]]);
  });
});

describe('GET /v1/me/notifications/unread-count', () => {
  it('counts up to 1000 and says there are more', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    const insert = (count: number) =>
      asService(api.db, (sql) =>
        sql.query(
          `insert into public.notifications (user_id, workspace_id, task_id, type, actor_id)
           select $1, $2, $3, 'commented', $4 from generate_series(1, $5::integer)`,
          [ws.member.id, ws.id, task.id, ws.owner.id, count],
        ),
      );
    await insert(1000);
    expect((await notes().unreadCount(ws.member.accessToken)).body).toEqual({
      object: 'unread_notification_count',
      unread: 1000,
      more: false,
    });
    await insert(1);
    expect((await notes().unreadCount(ws.member.accessToken)).body).toEqual({
      object: 'unread_notification_count',
      unread: 1000,
      more: true,
    });
  });
});

describe('invitation_accepted', () => {
  it('tells whoever sent an invitation that it was accepted, with no task', async () => {
    const { ws } = await board();
    const invitee = await createTestUser(api.db, {
      email: `invitee-${randomUUID().slice(0, 8)}@example.com`,
      displayName: 'Invitee',
    });
    const invited = await invitationCalls(api.app, ws).create(ws.admin.accessToken, {
      email: invitee.email,
      role: 'member',
    });
    expect(invited.status, invited.text).toBe(201);
    const token = invited.body.accept_url.split('/').at(-1) ?? '';
    const accepted = await acceptInvitation(api.app, invitee.accessToken, token);
    expect(accepted.status, accepted.text).toBe(200);
    expect(await inboxOf(ws.admin)).toEqual([
      expect.objectContaining({
        type: 'invitation_accepted',
        workspace: { id: ws.id, slug: ws.slug, name: 'Acme' },
        task: null,
        comment: null,
        actor: { id: invitee.id, display_name: 'Invitee' },
        change_count: 1,
      }),
    ]);
    expect(await inboxOf(ws.owner)).toEqual([]);
    expect(await inboxOf(invitee)).toEqual([]);
  });
});

describe('GET /v1/me/notifications: filters, paging and order', () => {
  let a: { ws: WorkspaceFixture; key: string };
  let b: { ws: WorkspaceFixture; key: string };
  let elsewhere: WorkspaceFixture;
  let person: TestUser;
  /** assigned in a (folded later), mentioned in a (read), mentioned in b, mentioned in a (archived). */
  let ids: { assigned: string; read: string; inB: string; archived: string };

  beforeAll(async () => {
    [a, b, elsewhere] = await Promise.all([board(), board(), createWorkspaceWithRoles(api.db)]);
    person = a.ws.member;
    await addMember(b.ws, person);
    const t1 = await taskBy(a.ws.owner, a.ws, a.key);
    await tasks().update(a.ws.owner.accessToken, t1.id, { assignee_id: person.id });
    const t2 = await taskBy(a.ws.owner, a.ws, a.key);
    await commentBy(a.ws.owner, t2.id, `hi ${mentionOf(person.id)}`);
    const t3 = await taskBy(b.ws.owner, b.ws, b.key);
    await commentBy(b.ws.owner, t3.id, `hi ${mentionOf(person.id)}`);
    const t4 = await taskBy(a.ws.owner, a.ws, a.key);
    await commentBy(a.ws.owner, t4.id, `hi ${mentionOf(person.id)}`);
    const byTask = new Map((await ofUser(person)).map((n) => [n.task_id, n.id]));
    ids = {
      assigned: byTask.get(t1.id) ?? '',
      read: byTask.get(t2.id) ?? '',
      inB: byTask.get(t3.id) ?? '',
      archived: byTask.get(t4.id) ?? '',
    };
    await asService(api.db, (sql) =>
      sql.query(
        `update public.notifications set read_at = case when id = $1 then now() else read_at end,
           archived_at = case when id = $2 then now() else archived_at end
         where id in ($1, $2)`,
        [ids.read, ids.archived],
      ),
    );
    // The owner assigns the task away and back: the member's unread `assigned` folds and moves up.
    await tasks().update(a.ws.owner.accessToken, t1.id, { assignee_id: a.ws.admin.id });
    await tasks().update(a.ws.owner.accessToken, t1.id, { assignee_id: person.id });
  });

  const idsOf = (list: Notification[]) => list.map((n) => n.id);

  it('lists the unarchived, most recently changed first', async () => {
    const list = await inboxOf(person);
    expect(idsOf(list)).toEqual([ids.assigned, ids.inB, ids.read]);
    expect(list[0]).toMatchObject({ type: 'assigned', change_count: 2 });
    const times = list.map((n) => n.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('counts the unread that are not archived', async () => {
    expect((await notes().unreadCount(person.accessToken)).body).toEqual({
      object: 'unread_notification_count',
      unread: 2,
      more: false,
    });
  });

  it('unread=true lists the unread only', async () => {
    expect(idsOf(await inboxOf(person, '?unread=true'))).toEqual([ids.assigned, ids.inB]);
    expect(idsOf(await inboxOf(person, '?unread=false'))).toEqual([ids.assigned, ids.inB, ids.read]);
  });

  it('archived=true lists the archived only', async () => {
    expect(idsOf(await inboxOf(person, '?archived=true'))).toEqual([ids.archived]);
  });

  it("workspace=<slug> lists that workspace's only; another workspace's slug lists nothing", async () => {
    expect(idsOf(await inboxOf(person, `?workspace=${a.ws.slug}`))).toEqual([ids.assigned, ids.read]);
    expect(idsOf(await inboxOf(person, `?workspace=${b.ws.slug}`))).toEqual([ids.inB]);
    expect(await inboxOf(person, `?workspace=${elsewhere.slug}`)).toEqual([]);
    expect(await inboxOf(person, '?workspace=no-such-workspace')).toEqual([]);
  });

  it('walks every notification once with limit=1, following Link and next_cursor', async () => {
    const seen: string[] = [];
    let query = '?limit=1';
    for (let pages = 0; pages < 10; pages += 1) {
      const response = await notes().list(person.accessToken, query);
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(1);
      seen.push(...idsOf(response.body.data));
      const next = response.body.next_cursor;
      if (!next) {
        expect(response.headers.get('Link')).toBeNull();
        break;
      }
      const link = response.headers.get('Link');
      expect(link).toBe(`<?limit=1&cursor=${next}>; rel="next"`);
      query = link?.slice(1, link.indexOf('>')) ?? '';
    }
    expect(seen).toEqual([ids.assigned, ids.inB, ids.read]);
  });

  it('keeps the filters in Link while paging', async () => {
    const first = await notes().list(person.accessToken, `?workspace=${a.ws.slug}&limit=1`);
    expect(first.body.data.map((n) => n.id)).toEqual([ids.assigned]);
    const link = first.headers.get('Link') ?? '';
    expect(link).toContain(`workspace=${a.ws.slug}`);
    const second = await notes().list(person.accessToken, link.slice(1, link.indexOf('>')));
    expect(second.body).toMatchObject({ next_cursor: null });
    expect(second.body.data.map((n) => n.id)).toEqual([ids.read]);
  });

  it.each([
    ['unread=yes', '?unread=yes', 'query.unread'],
    ['archived=1', '?archived=1', 'query.archived'],
    ['an unknown parameter', '?sort=oldest', 'query.sort'],
    ['a bad cursor', '?cursor=not-a-cursor', 'query.cursor'],
    ['limit=0', '?limit=0', 'query.limit'],
    ['an empty workspace', '?workspace=', 'query.workspace'],
    ['a workspace of 41 characters', `?workspace=${'w'.repeat(41)}`, 'query.workspace'],
  ])('answers %s with 400 bad_request naming it', async (_name, query, path) => {
    const problem = expectProblem(await notes().raw.list(person.accessToken, query), 400, 'bad_request');
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
  });
});

describe('PATCH /v1/me/notifications/{id}', () => {
  let ws: WorkspaceFixture;
  let mine: string;
  let ownersId: string;

  beforeAll(async () => {
    const made = await board();
    ws = made.ws;
    const task = await taskBy(ws.admin, ws, made.key);
    await commentBy(ws.admin, task.id, `${mentionOf(ws.member.id)} ${mentionOf(ws.owner.id)}`);
    const [forMember] = await ofUser(ws.member);
    const [forOwner] = await ofUser(ws.owner);
    if (!forMember || !forOwner) throw new Error('the mention told nobody');
    mine = forMember.id;
    ownersId = forOwner.id;
  });

  const stored = async (id: string) =>
    (await storedNotifications(api.db, 'n.id = $1', [id]))[0] ?? { read_at: 'gone', archived_at: 'gone' };

  it('read true sets read_at, read false clears it', async () => {
    const [listed] = await inboxOf(ws.member);
    const read = await notes().update(ws.member.accessToken, mine, { read: true });
    // Being read is no change to the notification: its updated_at stays.
    expect(read.body.updated_at).toBe(listed?.updated_at);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id: mine, read_at: expect.stringMatching(ISO_TIMESTAMP) });
    expect((await stored(mine)).read_at).toBeInstanceOf(Date);
    expect(await unreadOf(ws.member)).toBe(0);

    const unread = await notes().update(ws.member.accessToken, mine, { read: false });
    expect(unread.status, unread.text).toBe(200);
    expect(unread.body).toMatchObject({ id: mine, read_at: null });
    expect((await stored(mine)).read_at).toBeNull();
    expect(await unreadOf(ws.member)).toBe(1);
  });

  it('archived true hides it from the default list and shows it under archived=true', async () => {
    const archived = await notes().update(ws.member.accessToken, mine, { archived: true });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body.updated_at).toBe(archived.body.created_at);
    expect(archived.body.archived_at).toMatch(ISO_TIMESTAMP);
    expect((await stored(mine)).archived_at).toBeInstanceOf(Date);
    expect(await inboxOf(ws.member)).toEqual([]);
    expect((await inboxOf(ws.member, '?archived=true')).map((n) => n.id)).toEqual([mine]);

    const back = await notes().update(ws.member.accessToken, mine, { archived: false });
    expect(back.body.archived_at).toBeNull();
    expect((await inboxOf(ws.member)).map((n) => n.id)).toEqual([mine]);
  });

  it("answers 404 for another person's notification, and leaves it as it was", async () => {
    expectProblem(await notes().update(ws.member.accessToken, ownersId, { read: true }), 404, 'not_found');
    expect(await stored(ownersId)).toMatchObject({ read_at: null, archived_at: null });
  });

  it('answers 404 for an id that is not a UUID, and for an unknown one', async () => {
    expectProblem(
      await notes().raw.update(ws.member.accessToken, 'not-a-uuid', { read: true }),
      404,
      'not_found',
    );
    expectProblem(
      await notes().update(ws.member.accessToken, randomUUID(), { read: true }),
      404,
      'not_found',
    );
  });

  it('answers 422 for an unknown field', async () => {
    const before = await stored(mine);
    const problem = expectProblem(
      await notes().raw.update(ws.member.accessToken, mine, { read: true, pinned: true }),
      422,
      'validation_failed',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(['body.pinned']);
    expect(await stored(mine)).toEqual(before);
  });

  it('changes nothing for an empty patch, and keeps the time of a mark already set', async () => {
    const first = await notes().update(ws.member.accessToken, mine, { read: true });
    const same = await notes().update(ws.member.accessToken, mine, {});
    expect(same.status, same.text).toBe(200);
    expect(same.body.read_at).toBe(first.body.read_at);
    const again = await notes().update(ws.member.accessToken, mine, { read: true });
    expect(again.body.read_at).toBe(first.body.read_at);
    await notes().update(ws.member.accessToken, mine, { read: false });
  });

  it('answers 403 insufficient_scope to a read token', async () => {
    const before = await stored(mine);
    const readToken = await createApiTokenFor(api.app, ws.member, 'read');
    expectProblem(await notes().update(readToken, mine, { read: true }), 403, 'insufficient_scope');
    expect(await stored(mine)).toEqual(before);
    // Reading is what it may do.
    expect((await notes().list(readToken)).status).toBe(200);
  });
});

describe('POST /v1/me/notifications/batch', () => {
  it("marks only the caller's ids and counts only those", async () => {
    const { ws, key } = await board();
    const t1 = await taskBy(ws.admin, ws, key);
    const t2 = await taskBy(ws.admin, ws, key);
    await commentBy(ws.admin, t1.id, `${mentionOf(ws.member.id)} ${mentionOf(ws.owner.id)}`);
    await commentBy(ws.admin, t2.id, mentionOf(ws.member.id));
    const memberIds = (await ofUser(ws.member)).map((n) => n.id);
    const [ownersId] = (await ofUser(ws.owner)).map((n) => n.id);
    expect(memberIds).toHaveLength(2);

    const response = await notes().updateMany(ws.member.accessToken, {
      ids: [...memberIds, ownersId ?? ''],
      read: true,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ object: 'notifications_updated', updated: 2 });
    expect((await ofUser(ws.member)).map((n) => n.read_at instanceof Date)).toEqual([true, true]);
    expect((await ofUser(ws.owner)).map((n) => n.read_at)).toEqual([null]);
    expect(await unreadOf(ws.member)).toBe(0);
  });

  it('refuses more than 100 ids, and an id named twice, with 422', async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.admin, ws, key);
    await commentBy(ws.admin, task.id, mentionOf(ws.member.id));
    const [id] = (await ofUser(ws.member)).map((n) => n.id);
    if (!id) throw new Error('no notification');
    const tooMany = [id, ...Array.from({ length: 100 }, () => randomUUID())];
    expectProblem(
      await notes().updateMany(ws.member.accessToken, { ids: tooMany, read: true }),
      422,
      'validation_failed',
    );
    expectProblem(
      await notes().updateMany(ws.member.accessToken, { ids: [id, id], read: true }),
      422,
      'validation_failed',
    );
    expectProblem(
      await notes().updateMany(ws.member.accessToken, { ids: [], read: true }),
      422,
      'validation_failed',
    );
    expectProblem(
      await notes().raw.updateMany(ws.member.accessToken, { ids: [id], read: true, pinned: true }),
      422,
      'validation_failed',
    );
    expect((await ofUser(ws.member)).map((n) => n.read_at)).toEqual([null]);
    // 100 is the most it takes.
    const hundred = [id, ...Array.from({ length: 99 }, () => randomUUID())];
    const response = await notes().updateMany(ws.member.accessToken, { ids: hundred, read: true });
    expect(response.status, response.text).toBe(200);
    expect(response.body.updated).toBe(1);
  });
});

describe('POST /v1/me/notifications/read-all', () => {
  it("marks every unread read; with workspace, only that workspace's", async () => {
    const [a, b] = await Promise.all([board(), board()]);
    const person = a.ws.member;
    await addMember(b.ws, person);
    const ta = await taskBy(a.ws.owner, a.ws, a.key);
    await commentBy(a.ws.owner, ta.id, mentionOf(person.id));
    await tasks().update(a.ws.owner.accessToken, ta.id, { assignee_id: person.id });
    const tb = await taskBy(b.ws.owner, b.ws, b.key);
    await commentBy(b.ws.owner, tb.id, mentionOf(person.id));
    expect(await unreadOf(person)).toBe(3);

    // A workspace the person is not in changes nothing.
    const foreign = await createWorkspaceWithRoles(api.db);
    const none = await notes().readAll(person.accessToken, { workspace: foreign.slug });
    expect(none.body).toEqual({ object: 'notifications_updated', updated: 0 });
    expect(await unreadOf(person)).toBe(3);

    const onlyB = await notes().readAll(person.accessToken, { workspace: b.ws.slug });
    expect(onlyB.status, onlyB.text).toBe(200);
    expect(onlyB.body).toEqual({ object: 'notifications_updated', updated: 1 });
    const unreadWhere = async () =>
      (await ofUser(person)).map((n) => [n.workspace_id, n.read_at === null] as const);
    expect(await unreadWhere()).toEqual([
      [a.ws.id, true],
      [a.ws.id, true],
      [b.ws.id, false],
    ]);
    expect(await unreadOf(person)).toBe(2);

    const all = await notes().readAll(person.accessToken);
    expect(all.body).toEqual({ object: 'notifications_updated', updated: 2 });
    expect(await unreadWhere()).toEqual([
      [a.ws.id, false],
      [a.ws.id, false],
      [b.ws.id, false],
    ]);
    expect(await unreadOf(person)).toBe(0);
    expect((await notes().readAll(person.accessToken)).body.updated).toBe(0);
  });
});

describe('notification settings', () => {
  const DEFAULTS = {
    assigned: 'email_now',
    mentioned: 'email_now',
    commented: 'inbox',
    status_changed: 'inbox',
    due_soon: 'email_digest',
    overdue: 'email_digest',
    invitation_accepted: 'inbox',
  };

  it('answers the defaults, then commented off: no more commented, mentions still arrive', async () => {
    const { ws, key } = await board();
    const got = await notes().settings(ws.member.accessToken);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ object: 'notification_settings', deliveries: DEFAULTS });

    const put = await notes().updateSettings(ws.member.accessToken, { deliveries: { commented: 'off' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({
      object: 'notification_settings',
      deliveries: { ...DEFAULTS, commented: 'off' },
    });
    expect((await notes().settings(ws.member.accessToken)).body.deliveries.commented).toBe('off');
    expect((await notes().settings(ws.owner.accessToken)).body.deliveries).toEqual(DEFAULTS);
    const none = await notes().updateSettings(ws.member.accessToken, { deliveries: {} });
    expect(none.status, none.text).toBe(200);
    expect(none.body.deliveries).toEqual({ ...DEFAULTS, commented: 'off' });

    const task = await taskIn(api.app, ws, key); // the member watches it
    await commentBy(ws.admin, task.id, 'a comment');
    expect(await ofTask(task.id)).toEqual([]);
    await commentBy(ws.owner, task.id, `and ${mentionOf(ws.member.id)}`);
    expect((await inboxOf(ws.member)).map((n) => n.type)).toEqual(['mentioned']);
    expect((await ofUser(ws.member)).map((n) => [n.task_id, n.type])).toEqual([[task.id, 'mentioned']]);
    // The admin, who commented and so watches, still hears of the owner's comment.
    expect((await ofUser(ws.admin)).map((n) => [n.task_id, n.type])).toEqual([[task.id, 'commented']]);
  });

  it.each([
    ['an invalid delivery', { deliveries: { commented: 'loud' } }, 'body.deliveries.commented'],
    ['an unknown type', { deliveries: { liked: 'off' } }, 'body.deliveries.liked'],
    ['a body without deliveries', {}, 'body.deliveries'],
    ['deliveries of null', { deliveries: { mentioned: null } }, 'body.deliveries.mentioned'],
  ])('refuses %s with 422, changing nothing', async (_name, body, path) => {
    const { ws } = await board();
    const problem = expectProblem(
      await notes().raw.updateSettings(ws.member.accessToken, body),
      422,
      'validation_failed',
    );
    expect(problem.errors?.map((error) => error.path)).toEqual([path]);
    expect((await notes().settings(ws.member.accessToken)).body.deliveries).toEqual(DEFAULTS);
    const rows = await asService(api.db, (sql) =>
      sql.query('select 1 from public.notification_settings where user_id = $1', [ws.member.id]),
    );
    expect(rows).toEqual([]);
  });
});

describe('removal from the workspace', () => {
  it("takes the member's notifications from it away, and mentions of them tell nobody", async () => {
    const { ws, key } = await board();
    const task = await taskBy(ws.owner, ws, key);
    await commentBy(ws.owner, task.id, mentionOf(ws.member.id));
    expect(await inboxOf(ws.member)).toHaveLength(1);
    expect(await unreadOf(ws.member)).toBe(1);

    const removed = await memberCalls(api.app, ws).remove(ws.owner.accessToken, ws.member.id);
    expect(removed.status, removed.text).toBe(204);
    expect(await inboxOf(ws.member)).toEqual([]);
    expect(await inboxOf(ws.member, `?workspace=${ws.slug}`)).toEqual([]);
    expect(await unreadOf(ws.member)).toBe(0);
    expect(await ofUser(ws.member)).toEqual([]);

    await commentBy(ws.owner, task.id, `again ${mentionOf(ws.member.id)}`);
    expect(await ofUser(ws.member)).toEqual([]);
    expect(await ofTask(task.id)).toEqual([]);
    expect(await storedWatchers(api.db, task.id)).toEqual([ws.owner.id]);
  });
});
