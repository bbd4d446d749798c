/**
 * Who gets told what (supabase/migrations/20261203100000_create_notifications.sql): the trigger
 * `events_notify` on the event log adds watchers and writes `mentioned`, `assigned`, `commented` and
 * `status_changed` notifications set-based, never to the actor, never to a non-member, never of a type
 * set `off`, folding one actor's changes to a task within 10 minutes into the recipient's unread
 * notification; `invitation_accepted` for whoever invited; a removed member's notifications and watches
 * go; private.notify_due_tasks() writes `due_soon` and `overdue` by the assignee's time zone, once per due
 * date; each person's notifications changing is broadcast on `user:<uuid>`, which only they may read.
 *
 * Changes are made as the database owner (RLS is not the subject here) with `request.jwt.claims` naming
 * the actor, so that the event log, and so the notifications, record who acted.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureLiveSession, liveSessionClaims } from '../support/live-session.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';

const database = useTestDatabaseClient();
let db: pg.Client;

beforeAll(() => {
  db = database.db;
});

async function one<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row> {
  const { rows } = await db.query<Row>(text, values);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

async function newUser(name: string, timeZone: string | null = null): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, email, email_confirmed_at, aud, role, raw_user_meta_data, created_at, updated_at)
     values ($1, $2, now(), 'authenticated', 'authenticated', $3, now(), now())`,
    [id, `${name.toLowerCase()}-${id.slice(0, 8)}@notifications.test`, { display_name: name }],
  );
  await ensureLiveSession(db, id);
  if (timeZone)
    await db.query('update public.profiles set time_zone = $2 where user_id = $1', [id, timeZone]);
  return id;
}

async function addMember(workspaceId: string, userId: string, role = 'member'): Promise<void> {
  await db.query('insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

interface Board {
  workspaceId: string;
  projectId: string;
  /** A task nobody watches yet, made without an actor. */
  taskId: string;
  owner: string;
  ana: string;
  ben: string;
  cat: string;
  /** Signed in, a member of a workspace of their own only. */
  outsider: string;
}

/** A workspace with an owner and three members, a project and a task, made as the database owner. */
async function newBoard(): Promise<Board> {
  const [owner, ana, ben, cat, outsider] = [
    await newUser('Owner'),
    await newUser('Ana'),
    await newUser('Ben'),
    await newUser('Cat'),
    await newUser('Outsider'),
  ];
  const slug = `nt-${randomUUID().slice(0, 8)}`;
  const { id: workspaceId } = await one<{ id: string }>(
    `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
    [slug, owner],
  );
  await addMember(workspaceId, owner, 'owner');
  for (const member of [ana, ben, cat]) await addMember(workspaceId, member);
  const { id: otherWorkspaceId } = await one<{ id: string }>(
    `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
    [`${slug}-other`, outsider],
  );
  await addMember(otherWorkspaceId, outsider, 'owner');
  const { id: projectId } = await one<{ id: string }>(
    `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'NT', 'Notify', $2) returning id`,
    [workspaceId, owner],
  );
  const taskId = await newTaskAsNobody(projectId, owner);
  return { workspaceId, projectId, taskId, owner, ana, ben, cat, outsider };
}

let positions = 0;
/** A task made with no actor (no claims): no event names anyone, so nobody watches it or is told. */
async function newTaskAsNobody(projectId: string, createdBy: string): Promise<string> {
  positions += 1;
  const { id } = await one<{ id: string }>(
    `insert into public.tasks (project_id, title, position, created_by) values ($1, 'Fix the login', $2, $3)
     returning id`,
    [projectId, `a${String(positions).padStart(5, '0')}`, createdBy],
  );
  return id;
}

/** Runs one statement in its own transaction as the database owner, with `actor` as the JWT's subject. */
async function change<Row extends pg.QueryResultRow>(
  actor: string,
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  await db.query('begin');
  try {
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: actor, role: 'authenticated' }),
    ]);
    const { rows } = await db.query<Row>(text, values);
    await db.query('commit');
    return rows;
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

/** `actor` comments on the task; the comment's id. */
async function comment(actor: string, taskId: string, body: string): Promise<string> {
  const [row] = await change<{ id: string }>(
    actor,
    'insert into public.comments (task_id, author_id, body) values ($1, $2, $3) returning id',
    [taskId, actor, body],
  );
  if (!row) throw new Error('no comment');
  return row.id;
}

/** `actor` creates a task in the project with `fields`; its id. */
async function createTask(
  actor: string,
  projectId: string,
  fields: { assignee_id?: string; description?: string } = {},
): Promise<string> {
  positions += 1;
  const [row] = await change<{ id: string }>(
    actor,
    `insert into public.tasks (project_id, title, description, assignee_id, position, created_by)
     values ($1, 'New task', $2, $3, $4, $5) returning id`,
    [
      projectId,
      fields.description ?? '',
      fields.assignee_id ?? null,
      `b${String(positions).padStart(5, '0')}`,
      actor,
    ],
  );
  if (!row) throw new Error('no task');
  return row.id;
}

const mention = (userId: string) => `<@${userId}>`;

async function watch(taskId: string, ...userIds: string[]): Promise<void> {
  await db.query('insert into public.task_watchers (task_id, user_id) select $1, unnest($2::uuid[])', [
    taskId,
    userIds,
  ]);
}

async function watchersOf(taskId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    'select user_id from public.task_watchers where task_id = $1',
    [taskId],
  );
  return rows.map((row) => row.user_id).sort();
}

interface Notification {
  user_id: string;
  type: string;
  actor_id: string | null;
  task_id: string | null;
  comment_id: string | null;
  change_count: number;
}

const told = (
  user_id: string,
  type: string,
  actor_id: string | null,
  task_id: string | null,
  comment_id: string | null = null,
  change_count = 1,
): Notification => ({ user_id, type, actor_id, task_id, comment_id, change_count });

/** A canonical order, so that lists of notifications compare as multisets. */
const canonical = (rows: Notification[]): Notification[] =>
  [...rows].sort((a, b) => JSON.stringify(Object.values(a)).localeCompare(JSON.stringify(Object.values(b))));

/** Every notification of the workspace (read or not), in canonical order. */
async function notificationsIn(workspaceId: string): Promise<Notification[]> {
  const { rows } = await db.query<Notification>(
    `select user_id, type, actor_id, task_id, comment_id, change_count
     from public.notifications where workspace_id = $1`,
    [workspaceId],
  );
  return canonical(rows);
}

async function expectNotifications(workspaceId: string, expected: Notification[]): Promise<void> {
  expect(await notificationsIn(workspaceId)).toEqual(canonical(expected));
}

describe('assigned', () => {
  test('a task created assigned to someone else tells the assignee, who watches it with its creator', async () => {
    const board = await newBoard();
    const taskId = await createTask(board.owner, board.projectId, { assignee_id: board.ana });
    await expectNotifications(board.workspaceId, [told(board.ana, 'assigned', board.owner, taskId)]);
    expect(await watchersOf(taskId)).toEqual([board.owner, board.ana].sort());
  });

  test('reassigning tells the new assignee; assigning oneself tells nobody but makes one a watcher', async () => {
    const board = await newBoard();
    await change(board.owner, 'update public.tasks set assignee_id = $2 where id = $1', [
      board.taskId,
      board.ana,
    ]);
    await expectNotifications(board.workspaceId, [told(board.ana, 'assigned', board.owner, board.taskId)]);

    await change(board.ben, 'update public.tasks set assignee_id = $2 where id = $1', [
      board.taskId,
      board.ben,
    ]);
    const ownTask = await createTask(board.cat, board.projectId, { assignee_id: board.cat });
    await expectNotifications(board.workspaceId, [told(board.ana, 'assigned', board.owner, board.taskId)]);
    expect(await watchersOf(board.taskId)).toEqual([board.ana, board.ben].sort());
    expect(await watchersOf(ownTask)).toEqual([board.cat]);
  });
});

describe('mentioned', () => {
  test('a comment mentioning a member tells them `mentioned` with the comment, and not `commented` too', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ana, board.ben);
    const commentId = await comment(board.owner, board.taskId, `${mention(board.ana)} can you look?`);
    await expectNotifications(board.workspaceId, [
      told(board.ana, 'mentioned', board.owner, board.taskId, commentId),
      told(board.ben, 'commented', board.owner, board.taskId, commentId),
    ]);
    expect(await watchersOf(board.taskId)).toEqual([board.owner, board.ana, board.ben].sort());
  });

  test('a member mentioned by a comment on a task they do not watch is told, and watches it from then on', async () => {
    const board = await newBoard();
    const commentId = await comment(board.owner, board.taskId, `Hello ${mention(board.cat)}`);
    await expectNotifications(board.workspaceId, [
      told(board.cat, 'mentioned', board.owner, board.taskId, commentId),
    ]);
    expect(await watchersOf(board.taskId)).toEqual([board.owner, board.cat].sort());
  });

  test('mentions of an outsider, of a uuid nobody has, and of oneself tell nobody and add no watcher', async () => {
    const board = await newBoard();
    await comment(
      board.ana,
      board.taskId,
      `${mention(board.outsider)} ${mention(randomUUID())} ${mention(board.ana)} ${mention(board.ana.toUpperCase())}`,
    );
    await expectNotifications(board.workspaceId, []);
    expect(await watchersOf(board.taskId)).toEqual([board.ana]);
    const outsiders = await db.query('select 1 from public.notifications where user_id = $1', [
      board.outsider,
    ]);
    expect(outsiders.rows).toEqual([]);
  });

  test('a description mentioning a member, when the task is created and when it is edited, tells them', async () => {
    const board = await newBoard();
    const taskId = await createTask(board.owner, board.projectId, {
      description: `Pair with ${mention(board.ana)}`,
    });
    await expectNotifications(board.workspaceId, [told(board.ana, 'mentioned', board.owner, taskId)]);
    expect(await watchersOf(taskId)).toEqual([board.owner, board.ana].sort());

    await change(board.cat, 'update public.tasks set description = $2 where id = $1', [
      board.taskId,
      `Needs ${mention(board.ben)}`,
    ]);
    await expectNotifications(board.workspaceId, [
      told(board.ana, 'mentioned', board.owner, taskId),
      told(board.ben, 'mentioned', board.cat, board.taskId),
    ]);
    expect(await watchersOf(board.taskId)).toEqual([board.ben]);
  });

  test('editing a comment or a description tells only the mentions it adds', async () => {
    const board = await newBoard();
    const commentId = await comment(board.owner, board.taskId, `${mention(board.ana)} first`);
    await change(board.owner, 'update public.comments set body = $2 where id = $1', [
      commentId,
      `${mention(board.ana)} first, and ${mention(board.ben)}`,
    ]);
    // Keeps both mentions, reordered, and changes the words: nobody new.
    await change(board.owner, 'update public.comments set body = $2 where id = $1', [
      commentId,
      `${mention(board.ben)} and ${mention(board.ana)}, again`,
    ]);
    await expectNotifications(board.workspaceId, [
      told(board.ana, 'mentioned', board.owner, board.taskId, commentId),
      told(board.ben, 'mentioned', board.owner, board.taskId, commentId),
    ]);

    const taskId = await createTask(board.cat, board.projectId, { description: `For ${mention(board.ana)}` });
    await change(board.cat, 'update public.tasks set description = $2 where id = $1', [
      taskId,
      `For ${mention(board.ana)}, now with ${mention(board.owner)}`,
    ]);
    await change(board.cat, `update public.tasks set description = $2, title = 'Renamed' where id = $1`, [
      taskId,
      `For ${mention(board.owner)} and ${mention(board.ana)}.`,
    ]);
    await expectNotifications(board.workspaceId, [
      told(board.ana, 'mentioned', board.owner, board.taskId, commentId),
      told(board.ben, 'mentioned', board.owner, board.taskId, commentId),
      told(board.ana, 'mentioned', board.cat, taskId),
      told(board.owner, 'mentioned', board.cat, taskId),
    ]);
  });
});

describe('watchers', () => {
  test('watchers hear of a new comment and of a status change, never of their own; a commenter watches from then on', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ana, board.ben);
    const commentId = await comment(board.cat, board.taskId, 'Looks done to me');
    expect(await watchersOf(board.taskId)).toEqual([board.ana, board.ben, board.cat].sort());
    await change(board.ana, `update public.tasks set status = 'in_progress' where id = $1`, [board.taskId]);
    await expectNotifications(board.workspaceId, [
      told(board.ana, 'commented', board.cat, board.taskId, commentId),
      told(board.ben, 'commented', board.cat, board.taskId, commentId),
      told(board.ben, 'status_changed', board.ana, board.taskId),
      told(board.cat, 'status_changed', board.ana, board.taskId),
    ]);
  });

  test('a status change made with other fields (task.updated) tells the watchers too', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ana, board.ben);
    await change(board.ana, `update public.tasks set status = 'done', title = 'Finished' where id = $1`, [
      board.taskId,
    ]);
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'status_changed', board.ana, board.taskId),
    ]);
  });

  test('a change that leaves the status alone (title, priority, position) tells nobody', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ana, board.ben);
    await change(board.ana, `update public.tasks set title = 'Another title' where id = $1`, [board.taskId]);
    await change(board.ana, `update public.tasks set priority = 'high' where id = $1`, [board.taskId]);
    await change(board.ana, `update public.tasks set position = 'z9' where id = $1`, [board.taskId]);
    await expectNotifications(board.workspaceId, []);
  });

  test('whoever creates a task watches it, and hears of comments on it', async () => {
    const board = await newBoard();
    const taskId = await createTask(board.owner, board.projectId);
    expect(await watchersOf(taskId)).toEqual([board.owner]);
    const commentId = await comment(board.ana, taskId, 'A question');
    await expectNotifications(board.workspaceId, [
      told(board.owner, 'commented', board.ana, taskId, commentId),
    ]);
  });
});

describe('folding', () => {
  test("one actor's comments within 10 minutes fold into the watcher's unread notification; once read, a new one", async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ben);
    await comment(board.ana, board.taskId, 'One');
    await comment(board.ana, board.taskId, 'Two');
    const third = await comment(board.ana, board.taskId, 'Three');
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'commented', board.ana, board.taskId, third, 3),
    ]);

    await db.query('update public.notifications set read_at = now() where user_id = $1', [board.ben]);
    const fourth = await comment(board.ana, board.taskId, 'Four');
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'commented', board.ana, board.taskId, third, 3),
      told(board.ben, 'commented', board.ana, board.taskId, fourth, 1),
    ]);
  });

  test('another actor does not fold into the unread notification, and neither does a change after 10 minutes', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ben);
    const byAna = await comment(board.ana, board.taskId, 'From Ana');
    const byCat = await comment(board.cat, board.taskId, 'From Cat');
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'commented', board.ana, board.taskId, byAna),
      told(board.ben, 'commented', board.cat, board.taskId, byCat),
      told(board.ana, 'commented', board.cat, board.taskId, byCat),
    ]);

    await db.query(
      `update public.notifications set updated_at = now() - interval '11 minutes', created_at = now() - interval '11 minutes'
       where user_id = $1 and actor_id = $2`,
      [board.ben, board.ana],
    );
    const later = await comment(board.ana, board.taskId, 'Later');
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'commented', board.ana, board.taskId, byAna),
      told(board.ben, 'commented', board.ana, board.taskId, later),
      told(board.ben, 'commented', board.cat, board.taskId, byCat),
      told(board.ana, 'commented', board.cat, board.taskId, byCat),
      told(board.cat, 'commented', board.ana, board.taskId, later),
    ]);
  });

  test('a status changed back and forth by one person folds too', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ben);
    for (const status of ['in_progress', 'in_review', 'done']) {
      await change(board.ana, 'update public.tasks set status = $2 where id = $1', [board.taskId, status]);
    }
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'status_changed', board.ana, board.taskId, null, 3),
    ]);
  });
});

describe('settings', () => {
  test('a type set `off` sends nothing of that type; other types arrive, with the mail their setting asks for', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ben);
    await db.query(
      `insert into public.notification_settings (user_id, type, delivery)
       values ($1, 'commented', 'off'), ($1, 'status_changed', 'email_digest')`,
      [board.ben],
    );
    await comment(board.ana, board.taskId, 'Nobody hears this');
    await change(board.ana, `update public.tasks set status = 'in_progress' where id = $1`, [board.taskId]);
    await change(board.ana, 'update public.tasks set assignee_id = $2 where id = $1', [
      board.taskId,
      board.ben,
    ]);
    await expectNotifications(board.workspaceId, [
      told(board.ben, 'status_changed', board.ana, board.taskId),
      told(board.ben, 'assigned', board.ana, board.taskId),
    ]);
    const { rows } = await db.query<{ type: string; email_delivery: string | null }>(
      'select type, email_delivery from public.notifications where user_id = $1 order by type',
      [board.ben],
    );
    expect(rows).toEqual([
      { type: 'assigned', email_delivery: 'now' },
      { type: 'status_changed', email_delivery: 'digest' },
    ]);
  });
});

describe('removing a member', () => {
  test('takes their notifications and watches in that workspace (only), and later events tell them nothing', async () => {
    const board = await newBoard();
    const elsewhere = await newBoard();
    await addMember(elsewhere.workspaceId, board.ben);
    await watch(board.taskId, board.ben);
    await watch(elsewhere.taskId, board.ben);
    await comment(board.ana, board.taskId, 'Before');
    const kept = await comment(elsewhere.ana, elsewhere.taskId, 'Elsewhere');
    expect((await notificationsIn(board.workspaceId)).map((n) => n.user_id)).toEqual([board.ben]);

    await db.query('delete from public.memberships where workspace_id = $1 and user_id = $2', [
      board.workspaceId,
      board.ben,
    ]);
    await expectNotifications(board.workspaceId, []);
    expect(await watchersOf(board.taskId)).toEqual([board.ana]);

    await comment(board.ana, board.taskId, `After, ${mention(board.ben)}`);
    await change(board.ana, `update public.tasks set status = 'done' where id = $1`, [board.taskId]);
    await expectNotifications(board.workspaceId, []);
    expect(await watchersOf(board.taskId)).toEqual([board.ana]);
    await expectNotifications(elsewhere.workspaceId, [
      told(board.ben, 'commented', elsewhere.ana, elsewhere.taskId, kept),
    ]);
    expect(await watchersOf(elsewhere.taskId)).toEqual([elsewhere.ana, board.ben].sort());
  });
});

describe('invitation_accepted', () => {
  test('accepting an invitation tells whoever sent it, and nobody else', async () => {
    const board = await newBoard();
    const invitee = await newUser('Invitee');
    const { email } = await one<{ email: string }>('select email from auth.users where id = $1', [invitee]);
    // An admin invites (private.accept_invitation checks the inviter may still grant the role).
    await db.query(`update public.memberships set role = 'admin' where workspace_id = $1 and user_id = $2`, [
      board.workspaceId,
      board.ana,
    ]);
    const token = randomUUID();
    await db.query(
      `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
       values ($1, $2, 'member', sha256(convert_to($3, 'UTF8')), $4)`,
      [board.workspaceId, email, token, board.ana],
    );
    await change(invitee, `select private.accept_invitation(sha256(convert_to($1, 'UTF8')))`, [token]);
    await expectNotifications(board.workspaceId, [told(board.ana, 'invitation_accepted', invitee, null)]);
  });
});

describe('due dates: private.notify_due_tasks()', () => {
  interface DueNotification {
    user_id: string;
    type: string;
    actor_id: string | null;
    task_id: string;
    comment_id: string | null;
    change_count: number;
    due_date: string;
  }

  test("due tomorrow in the assignee's time zone → due_soon, past → overdue, each once; done, canceled and unassigned get nothing", async () => {
    const board = await newBoard();
    // UTC+14 and UTC−11: Kiritimati's tomorrow is always Pago Pago's day after tomorrow or later.
    const kiritimati = await newUser('Kiri', 'Pacific/Kiritimati');
    const pagoPago = await newUser('Pago', 'Pacific/Pago_Pago');
    const utc = board.cat; // no time zone: UTC
    for (const person of [kiritimati, pagoPago]) await addMember(board.workspaceId, person);

    /** A task assigned to `assignee` (as themselves: no `assigned`), due `days` after today in `timeZone`. */
    const dueTask = async (
      assignee: string | null,
      timeZone: string,
      days: number,
      status = 'todo',
    ): Promise<{ id: string; due: string }> => {
      positions += 1;
      const [row] = await change<{ id: string; due: string }>(
        assignee ?? board.owner,
        `insert into public.tasks (project_id, title, status, assignee_id, due_date, position, created_by)
         values ($1, 'Due', $2, $3, (now() at time zone $4)::date + $5::integer, $6, $7)
         returning id, due_date::text as due`,
        [
          board.projectId,
          status,
          assignee,
          timeZone,
          days,
          `c${String(positions).padStart(5, '0')}`,
          board.owner,
        ],
      );
      if (!row) throw new Error('no task');
      return row;
    };

    const soon = await dueTask(kiritimati, 'Pacific/Kiritimati', 1);
    const late = await dueTask(kiritimati, 'Pacific/Kiritimati', -3);
    await dueTask(kiritimati, 'Pacific/Kiritimati', 0);
    await dueTask(kiritimati, 'Pacific/Kiritimati', 2);
    // Kiritimati's tomorrow is not Pago Pago's.
    await dueTask(pagoPago, 'Pacific/Kiritimati', 1);
    const pagoSoon = await dueTask(pagoPago, 'Pacific/Pago_Pago', 1);
    const thirtyDays = await dueTask(utc, 'UTC', -30);
    await dueTask(utc, 'UTC', -31);
    await dueTask(kiritimati, 'Pacific/Kiritimati', 1, 'done');
    await dueTask(kiritimati, 'Pacific/Kiritimati', -1, 'canceled');
    await dueTask(null, 'UTC', 1);
    await dueTask(null, 'UTC', -1);

    const run = async () =>
      Number((await one<{ written: string }>('select private.notify_due_tasks()::text as written')).written);
    const dueNotifications = async () => {
      const { rows } = await db.query<DueNotification>(
        `select user_id, type, actor_id, task_id, comment_id, change_count, due_date::text
         from public.notifications where workspace_id = $1 order by type, due_date, user_id`,
        [board.workspaceId],
      );
      return rows;
    };
    const system = (user_id: string, type: string, task: { id: string; due: string }): DueNotification => ({
      user_id,
      type,
      actor_id: null,
      task_id: task.id,
      comment_id: null,
      change_count: 1,
      due_date: task.due,
    });
    const expected = [
      system(kiritimati, 'due_soon', soon),
      system(pagoPago, 'due_soon', pagoSoon),
      system(utc, 'overdue', thirtyDays),
      system(kiritimati, 'overdue', late),
    ];
    const sortDue = (rows: DueNotification[]) =>
      [...rows].sort((a, b) =>
        `${a.type}|${a.due_date}|${a.user_id}`.localeCompare(`${b.type}|${b.due_date}|${b.user_id}`),
      );

    expect(await run()).toBe(4);
    expect(sortDue(await dueNotifications())).toEqual(sortDue(expected));
    expect(await run()).toBe(0);
    expect(sortDue(await dueNotifications())).toEqual(sortDue(expected));
  });

  test('an assignee whose setting for due_soon is off is not told', async () => {
    const board = await newBoard();
    await db.query(
      `insert into public.notification_settings (user_id, type, delivery) values ($1, 'due_soon', 'off')`,
      [board.ana],
    );
    await change(
      board.ana,
      `insert into public.tasks (project_id, title, assignee_id, due_date, position, created_by)
       values ($1, 'Due', $2, (now() at time zone 'UTC')::date + 1, 'd0', $2)`,
      [board.projectId, board.ana],
    );
    await db.query('select private.notify_due_tasks()');
    await expectNotifications(board.workspaceId, []);
  });
});

interface Message {
  topic: string;
  event: string;
  extension: string;
  private: boolean;
  payload: Record<string, unknown>;
}

async function messagesOn(topic: string): Promise<Message[]> {
  const { rows } = await db.query<Message>(
    'select topic, event, extension, private, payload from realtime.messages where topic = $1',
    [topic],
  );
  return rows;
}

describe('a flood', () => {
  test('one transaction moving 200 watched tasks gives one notification per task, broadcast to the watcher only', async () => {
    const board = await newBoard();
    const { id: projectId } = await one<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'FL', 'Flood', $2) returning id`,
      [board.workspaceId, board.owner],
    );
    await db.query(
      `insert into public.tasks (project_id, title, position, created_by)
       select $1, 'Flood ' || i, 'a' || lpad(i::text, 3, '0'), $2 from generate_series(1, 200) i`,
      [projectId, board.owner],
    );
    await db.query(
      `insert into public.task_watchers (task_id, user_id)
       select t.id, u from public.tasks t cross join unnest($2::uuid[]) u where t.project_id = $1`,
      [projectId, [board.ana, board.ben]],
    );
    const [benBefore, anaBefore] = [
      (await messagesOn(`user:${board.ben}`)).length,
      (await messagesOn(`user:${board.ana}`)).length,
    ];

    await change(board.ana, `update public.tasks set status = 'in_progress' where project_id = $1`, [
      projectId,
    ]);

    const { rows } = await db.query<{ task_id: string; notifications: number; as_expected: boolean }>(
      `select t.id as task_id, count(n.id)::integer as notifications,
         coalesce(bool_and(n.user_id = $2 and n.type = 'status_changed' and n.actor_id = $3
           and n.change_count = 1 and n.comment_id is null), false) as as_expected
       from public.tasks t left join public.notifications n on n.task_id = t.id
       where t.project_id = $1 group by t.id`,
      [projectId, board.ben, board.ana],
    );
    expect(rows).toHaveLength(200);
    expect(rows.filter((row) => row.notifications !== 1 || !row.as_expected)).toEqual([]);
    const total = await one<{ count: number }>(
      'select count(*)::integer as count from public.notifications where workspace_id = $1',
      [board.workspaceId],
    );
    expect(total.count).toBe(200);

    const toBen = (await messagesOn(`user:${board.ben}`)).slice(benBefore);
    expect(toBen.length).toBeGreaterThanOrEqual(1);
    expect(toBen[0]).toEqual({
      topic: `user:${board.ben}`,
      event: 'notifications',
      extension: 'broadcast',
      private: true,
      payload: { type: 'notifications', id: expect.any(String) },
    });
    expect((await messagesOn(`user:${board.ana}`)).slice(anaBefore)).toEqual([]);
  });

  test('marking a notification read is broadcast on its owner’s topic', async () => {
    const board = await newBoard();
    await watch(board.taskId, board.ben);
    await comment(board.ana, board.taskId, 'Read me');
    const before = (await messagesOn(`user:${board.ben}`)).length;
    await db.query('update public.notifications set read_at = now() where user_id = $1', [board.ben]);
    expect((await messagesOn(`user:${board.ben}`)).length).toBe(before + 1);
  });
});

describe('the mention cap', () => {
  const mentions = (count: number, userId?: string) =>
    Array.from({ length: count }, () => mention(userId ?? randomUUID())).join(' ');

  test('a comment or a description with 51 mentions is refused (23514); 50 are accepted', async () => {
    const board = await newBoard();
    await expect(comment(board.ana, board.taskId, mentions(51))).rejects.toMatchObject({
      code: '23514',
      constraint: 'comments_mentions_limit',
    });
    // Repeats count.
    await expect(comment(board.ana, board.taskId, mentions(51, board.ben))).rejects.toMatchObject({
      code: '23514',
    });
    await expect(comment(board.ana, board.taskId, mentions(50))).resolves.toEqual(expect.any(String));

    await expect(
      change(board.ana, 'update public.tasks set description = $2 where id = $1', [
        board.taskId,
        mentions(51),
      ]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'tasks_mentions_limit' });
    await expect(
      change(board.ana, 'update public.tasks set description = $2 where id = $1', [
        board.taskId,
        mentions(50),
      ]),
    ).resolves.toEqual([]);
    await expectNotifications(board.workspaceId, []);
  });
});

describe("a person's topic, user:<uuid>", () => {
  type Caller = { userId: string } | 'anon';

  /** Whether `caller`, joining `topic`, reads a broadcast on it (Realtime's read check). */
  async function readsBroadcast(caller: Caller, topic: string): Promise<boolean> {
    await db.query('begin');
    try {
      const probe = await one<{ id: string }>(
        `insert into realtime.messages (topic, extension, event, private)
         values ($1, 'broadcast', 'notifications', true) returning id`,
        [topic],
      );
      await actAs(caller, topic);
      const seen = await db.query('select 1 from realtime.messages where id = $1', [probe.id]);
      return seen.rows.length === 1;
    } finally {
      await db.query('rollback');
    }
  }

  /** Whether `caller` may write `extension` on `topic` (Realtime's write check). */
  async function writes(caller: Caller, topic: string, extension: string): Promise<boolean> {
    await db.query('begin');
    try {
      await actAs(caller, topic);
      await db.query(
        `insert into realtime.messages (topic, extension, event, private) values ($1, $2, 'probe', true)`,
        [topic, extension],
      );
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === '42501') return false;
      throw error;
    } finally {
      await db.query('rollback');
    }
  }

  async function actAs(caller: Caller, topic: string): Promise<void> {
    const [role, claims, sub] =
      caller === 'anon'
        ? ['anon', JSON.stringify({ role: 'anon' }), '']
        : ['authenticated', liveSessionClaims(caller.userId), caller.userId];
    await db.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
         set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
         set_config('realtime.topic', $4, true)`,
      [role, claims, sub, topic],
    );
  }

  test('is read by its person only, and written by nobody', async () => {
    const board = await newBoard();
    const topic = `user:${board.ana}`;
    expect(await readsBroadcast({ userId: board.ana }, topic)).toBe(true);
    expect(await readsBroadcast({ userId: board.ben }, topic)).toBe(false);
    expect(await readsBroadcast({ userId: board.outsider }, topic)).toBe(false);
    expect(await readsBroadcast('anon', topic)).toBe(false);
    expect(await readsBroadcast({ userId: board.ben }, `user:${board.ben}`)).toBe(true);
    expect(await readsBroadcast({ userId: board.ana }, `user:${board.ana.toUpperCase()}`)).toBe(false);
    for (const extension of ['broadcast', 'presence']) {
      expect(await writes({ userId: board.ana }, topic, extension)).toBe(false);
    }
  });

  test('a signed-out session reads nothing on it', async () => {
    const board = await newBoard();
    await db.query(`update auth.sessions set not_after = now() - interval '1 second' where id = $1`, [
      board.ana,
    ]);
    expect(await readsBroadcast({ userId: board.ana }, `user:${board.ana}`)).toBe(false);
  });
});
