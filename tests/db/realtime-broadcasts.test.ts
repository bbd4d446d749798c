/**
 * Live boards from the event log (the realtime work, docs/realtime.md, docs/decisions/0022): every event
 * appended to public.events is broadcast on `workspace:<id>` by realtime.send() when its transaction commits;
 * a transaction of more than 20 events in a workspace sends one `bulk` message instead; a rolled-back one
 * sends nothing. A message carries no content (the second security review, decision 0033): ids, type,
 * version, seq, the feed's cursors around the event, the actor and the names of the changed fields, never a
 * value. Its triggers: supabase/migrations/20261128100000_create_realtime_broadcasts.sql, payloads
 * 20261129200000_content_free_broadcasts.sql.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { ensureLiveSession } from '../support/live-session.ts';

const database = useTestDatabaseClient();
let owner: pg.Client;

beforeAll(() => {
  owner = database.db;
});

type Payload = Record<string, unknown> & { changed?: string[] };

interface Message {
  topic: string;
  event: string;
  extension: string;
  private: boolean;
  payload: Payload;
}

interface Board {
  workspaceId: string;
  ownerId: string;
  memberId: string;
  viewerId: string;
  projectId: string;
  taskId: string;
}

async function one<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row> {
  const { rows } = await owner.query<Row>(text, values);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

async function newUser(name: string): Promise<string> {
  const id = randomUUID();
  await owner.query(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
     values ($1, $2, 'authenticated', 'authenticated', $3, now(), now())`,
    [id, `${name}-${id.slice(0, 8)}@secret-mail.test`, { display_name: name }],
  );
  await ensureLiveSession(owner, id);
  return id;
}

/** A workspace with an owner, a member and a viewer, a project and a task, made as the database owner. */
async function newBoard(): Promise<Board> {
  const [ownerId, memberId, viewerId] = [
    await newUser('Owner'),
    await newUser('Member'),
    await newUser('Viewer'),
  ];
  const slug = `rt-${randomUUID().slice(0, 8)}`;
  const { id: workspaceId } = await one<{ id: string }>(
    `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
    [slug, ownerId],
  );
  await owner.query(
    `insert into public.memberships (workspace_id, user_id, role)
     values ($1, $2, 'owner'), ($1, $3, 'member'), ($1, $4, 'viewer')`,
    [workspaceId, ownerId, memberId, viewerId],
  );
  const { id: projectId } = await one<{ id: string }>(
    `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'RT', 'Realtime', $2) returning id`,
    [workspaceId, ownerId],
  );
  const { id: taskId } = await one<{ id: string }>(
    `insert into public.tasks (project_id, title, description, position, created_by)
     values ($1, 'First', 'Long text', 'a0', $2) returning id`,
    [projectId, ownerId],
  );
  return { workspaceId, ownerId, memberId, viewerId, projectId, taskId };
}

/** The broadcasts on the workspace's topic, in feed order (bulk messages by their last seq). */
async function messagesOf(workspaceId: string): Promise<Message[]> {
  const { rows } = await owner.query<Message>(
    `select topic, event, extension, private, payload from realtime.messages
     where topic = 'workspace:' || $1
     order by coalesce((payload ->> 'seq')::bigint, (payload ->> 'seq_to')::bigint)`,
    [workspaceId],
  );
  return rows;
}

/** The messages sent after those there were when `change` started. */
async function messagesSentBy(workspaceId: string, change: () => Promise<unknown>): Promise<Message[]> {
  const before = (await messagesOf(workspaceId)).length;
  await change();
  return (await messagesOf(workspaceId)).slice(before);
}

/** Runs `statements` in one transaction as the database owner, with `actor` as the JWT's subject. */
async function transaction(actor: string | null, statements: [string, unknown[]][]): Promise<void> {
  await owner.query('begin');
  try {
    if (actor) {
      await owner.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: actor, role: 'authenticated' }),
      ]);
    }
    for (const [text, values] of statements) await owner.query(text, values);
    await owner.query('commit');
  } catch (error) {
    await owner.query('rollback');
    throw error;
  }
}

const change = (actor: string | null, text: string, values: unknown[] = []) =>
  transaction(actor, [[text, values]]);

/** The event row a message tells of. */
async function eventOf(workspaceId: string, seq: unknown) {
  return one<{ seq: string; type: string; actor_id: string | null }>(
    `select seq::text, type, actor_id from public.events where workspace_id = $1 and seq = $2`,
    [workspaceId, seq],
  );
}

/** The change feed's cursor for a position (supabase/functions/api/http/cursor.ts, event-order.ts). */
const cursorOf = (workspaceId: string, seq: number) =>
  Buffer.from(JSON.stringify([1, workspaceId, seq])).toString('base64url');

const bytes = (payload: Payload) => Buffer.byteLength(JSON.stringify(payload));

describe('one broadcast per event, after commit', () => {
  test('a move, made by a member under RLS, sends one private task.moved on the workspace topic', async () => {
    const board = await newBoard();
    const sent = await messagesSentBy(board.workspaceId, async () => {
      await owner.query('begin');
      await owner.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [
          JSON.stringify({
            sub: board.memberId,
            role: 'authenticated',
            aal: 'aal1',
            session_id: board.memberId,
          }),
        ],
      );
      await owner.query(`update public.tasks set status = 'done', position = 'b0' where id = $1`, [
        board.taskId,
      ]);
      await owner.query('commit');
    });
    expect(sent).toHaveLength(1);
    const [message] = sent;
    const event = await eventOf(board.workspaceId, message?.payload.seq);
    const task = await one<{ version: number; completed_at: string | null }>(
      `select version, private.iso_timestamp(completed_at) as completed_at from public.tasks where id = $1`,
      [board.taskId],
    );
    expect(message).toEqual({
      topic: `workspace:${board.workspaceId}`,
      event: 'task.moved',
      extension: 'broadcast',
      private: true,
      payload: {
        id: expect.any(String),
        seq: Number(event.seq),
        cursor: cursorOf(board.workspaceId, Number(event.seq)),
        previous_cursor: cursorOf(board.workspaceId, Number(event.seq) - 1),
        type: 'task.moved',
        project_id: board.projectId,
        task_id: board.taskId,
        resource_id: board.taskId,
        version: task.version,
        actor_id: board.memberId,
        changed: ['completed_at', 'position', 'status'],
      },
    });
    expect(task.completed_at).not.toBeNull();
  });

  test('nothing is sent before the transaction commits, and nothing when it rolls back', async () => {
    const board = await newBoard();
    const before = (await messagesOf(board.workspaceId)).length;
    await owner.query('begin');
    await owner.query(`update public.tasks set title = 'Undone' where id = $1`, [board.taskId]);
    const inside = (await messagesOf(board.workspaceId)).length;
    await owner.query('rollback');
    expect(inside).toBe(before);
    expect(await messagesOf(board.workspaceId)).toHaveLength(before);
    // A savepoint rolled back takes its events' messages with it; the rest go.
    const kept = await messagesSentBy(board.workspaceId, () =>
      transaction(board.ownerId, [
        [`update public.tasks set title = 'Kept' where id = $1`, [board.taskId]],
        ['savepoint undo', []],
        [`update public.tasks set priority = 'high' where id = $1`, [board.taskId]],
        ['rollback to savepoint undo', []],
      ]),
    );
    expect(kept.map((message) => message.payload.changed)).toEqual([['title']]);
  });

  test('task events: created, updated, deleted, each naming what changed and carrying none of it', async () => {
    const board = await newBoard();
    const created = await messagesSentBy(board.workspaceId, () =>
      change(
        board.memberId,
        `insert into public.tasks (project_id, title, description, position, created_by)
         values ($1, 'New', 'Secret plan', 'a5', $2)`,
        [board.projectId, board.memberId],
      ),
    );
    const taskId = created[0]?.payload.task_id;
    expect(created.map((message) => message.payload)).toEqual([
      expect.objectContaining({
        type: 'task.created',
        project_id: board.projectId,
        resource_id: taskId,
        version: 1,
        actor_id: board.memberId,
        changed: [
          'assignee_id',
          'checklist',
          'completed_at',
          'created_by',
          'description',
          'due_date',
          'key',
          'label_ids',
          'number',
          'position',
          'priority',
          'status',
          'title',
        ],
      }),
    ]);

    const updated = await messagesSentBy(board.workspaceId, () =>
      change(
        board.memberId,
        `update public.tasks set title = 'Secret title', description = 'Other secret' where id = $1`,
        [taskId],
      ),
    );
    expect(updated.map((message) => [message.event, message.payload.changed])).toEqual([
      ['task.updated', ['description', 'title']],
    ]);
    expect(updated[0]?.payload.version).toBe(2);

    const deleted = await messagesSentBy(board.workspaceId, () =>
      change(board.memberId, `delete from public.tasks where id = $1`, [taskId]),
    );
    expect(deleted.map((message) => message.payload)).toEqual([
      expect.objectContaining({
        type: 'task.deleted',
        task_id: taskId,
        resource_id: taskId,
        changed: [],
      }),
    ]);
    for (const message of [...created, ...updated, ...deleted]) {
      expect(JSON.stringify(message.payload)).not.toMatch(/secret|"New"|"RT-2"|"a5"|"todo"|"none"/i);
    }
  });

  test('comment events never carry the body', async () => {
    const board = await newBoard();
    const created = await messagesSentBy(board.workspaceId, () =>
      change(
        board.memberId,
        `insert into public.comments (task_id, author_id, body) values ($1, $2, 'Hush')`,
        [board.taskId, board.memberId],
      ),
    );
    const commentId = created[0]?.payload.resource_id;
    expect(created.map((message) => message.payload)).toEqual([
      expect.objectContaining({
        type: 'comment.created',
        project_id: board.projectId,
        task_id: board.taskId,
        version: 1,
        changed: ['author_id', 'body', 'deleted', 'deleted_at', 'edited_at'],
      }),
    ]);
    const edited = await messagesSentBy(board.workspaceId, () =>
      change(board.memberId, `update public.comments set body = 'Hush hush' where id = $1`, [commentId]),
    );
    expect(edited.map((message) => [message.event, message.payload.changed])).toEqual([
      ['comment.updated', ['body', 'edited_at']],
    ]);
    const deleted = await messagesSentBy(board.workspaceId, () =>
      change(board.memberId, `update public.comments set body = null, deleted_at = now() where id = $1`, [
        commentId,
      ]),
    );
    expect(
      deleted.map((message) => [message.event, message.payload.resource_id, message.payload.changed]),
    ).toEqual([['comment.deleted', commentId, []]]);
    for (const message of [...created, ...edited, ...deleted]) {
      expect(JSON.stringify(message.payload)).not.toMatch(/hush/i);
    }
  });

  test('label and project events', async () => {
    const board = await newBoard();
    const sent = await messagesSentBy(board.workspaceId, async () => {
      await change(
        board.ownerId,
        `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'bug', '#d73a4a', $2)`,
        [board.workspaceId, board.ownerId],
      );
      await change(board.ownerId, `update public.labels set color = '#000000' where workspace_id = $1`, [
        board.workspaceId,
      ]);
      await change(board.ownerId, `delete from public.labels where workspace_id = $1`, [board.workspaceId]);
      await change(
        board.ownerId,
        `update public.projects set name = 'Renamed', description = 'Plans' where id = $1`,
        [board.projectId],
      );
      await change(board.ownerId, `update public.projects set archived_at = now() where id = $1`, [
        board.projectId,
      ]);
    });
    const summary = sent.map(({ event, payload }) => ({
      event,
      project_id: payload.project_id,
      task_id: payload.task_id,
      changed: payload.changed,
    }));
    expect(summary).toEqual([
      { event: 'label.created', project_id: null, task_id: null, changed: ['color', 'created_by', 'name'] },
      { event: 'label.updated', project_id: null, task_id: null, changed: ['color'] },
      { event: 'label.deleted', project_id: null, task_id: null, changed: [] },
      {
        event: 'project.updated',
        project_id: board.projectId,
        task_id: null,
        changed: ['description', 'name'],
      },
      {
        event: 'project.archived',
        project_id: board.projectId,
        task_id: null,
        changed: ['archived', 'archived_at'],
      },
    ]);
    const labelId = sent[0]?.payload.resource_id;
    expect(sent.slice(0, 3).map((message) => message.payload.resource_id)).toEqual([
      labelId,
      labelId,
      labelId,
    ]);
    expect(sent[3]?.payload.resource_id).toBe(board.projectId);
    expect(JSON.stringify(sent)).not.toMatch(/bug|#d73a4a|#000000|Renamed|Plans/);
  });

  test("member events name the user by id and never carry anyone's e-mail address", async () => {
    const board = await newBoard();
    const newcomer = await newUser('Newcomer');
    const sent = await messagesSentBy(board.workspaceId, async () => {
      await change(
        board.ownerId,
        `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
         values ($1, 'invitee@secret-mail.test', 'member', sha256('rt'), $2)`,
        [board.workspaceId, board.ownerId],
      );
      await change(
        board.ownerId,
        `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'member')`,
        [board.workspaceId, newcomer],
      );
      await change(board.ownerId, `update public.memberships set role = 'viewer' where user_id = $1`, [
        newcomer,
      ]);
      await change(board.ownerId, `delete from public.memberships where user_id = $1`, [newcomer]);
    });
    expect(sent.map(({ event, payload }) => [event, payload.resource_id, payload.changed])).toEqual([
      ['member.added', newcomer, ['display_name', 'role']],
      ['member.updated', newcomer, ['role']],
      ['member.removed', newcomer, []],
    ]);
    const everything = JSON.stringify(await messagesOf(board.workspaceId));
    expect(everything).not.toContain('@');
    expect(everything).not.toContain('secret-mail');
    expect(everything).not.toMatch(/Newcomer|"viewer"|"member"/);
  });
});

describe('no content, whatever the change', () => {
  /** The keys of every message about one event, and nothing else. */
  const CHANGE_KEYS = [
    'actor_id',
    'changed',
    'cursor',
    'id',
    'previous_cursor',
    'project_id',
    'resource_id',
    'seq',
    'task_id',
    'type',
    'version',
  ];

  test('long values are named, not sent: every message stays small', async () => {
    const board = await newBoard();
    const sent = await messagesSentBy(board.workspaceId, async () => {
      await change(
        board.ownerId,
        `insert into public.tasks (project_id, title, description, position, created_by)
         values ($1, $2, $3, 'a9', $4)`,
        [board.projectId, 'T'.repeat(200), 'd'.repeat(20_000), board.ownerId],
      );
      await change(board.ownerId, `update public.tasks set title = $2, description = $3 where id = $1`, [
        board.taskId,
        '😀'.repeat(200),
        'x'.repeat(20_000),
      ]);
    });
    expect(sent.map((message) => [message.event, message.payload.changed?.includes('title')])).toEqual([
      ['task.created', true],
      ['task.updated', true],
    ]);
    for (const message of sent) {
      expect(bytes(message.payload)).toBeLessThan(600);
      // Runs no id or cursor can hold (a UUID's hex may well hold "ddd"): any piece of a long value would.
      expect(JSON.stringify(message.payload)).not.toMatch(/T{20}|d{20}|x{20}|😀/);
    }
  });

  // Fuzzing: any change of a task's fields, by anyone, with any values, sends messages with the same keys,
  // naming fields and holding none of the values.
  test('a message of any task change holds its keys, the names of what changed and no value', async () => {
    const board = await newBoard();
    const text = fc.string({ minLength: 1, maxLength: 60 }).map((value) => `Ω${value}`);
    const taskChange = fc.record(
      {
        title: text,
        description: text,
        status: fc.constantFrom('backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'),
        priority: fc.constantFrom('none', 'low', 'medium', 'high', 'urgent'),
        due_date: fc.option(fc.constantFrom('2027-01-31', '2030-12-01'), { nil: null }),
        assignee_id: fc.option(fc.constantFrom(board.memberId, board.ownerId), { nil: null }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(taskChange, fc.constantFrom(board.ownerId, board.memberId), async (values, actor) => {
        const names = Object.keys(values);
        fc.pre(names.length > 0);
        const assignments = names.map((name, index) => `${name} = $${index + 2}`).join(', ');
        const sent = await messagesSentBy(board.workspaceId, () =>
          change(actor, `update public.tasks set ${assignments} where id = $1`, [
            board.taskId,
            ...names.map((name) => values[name as keyof typeof values]),
          ]),
        );
        for (const { payload } of sent) {
          expect(Object.keys(payload).sort()).toEqual(CHANGE_KEYS);
          expect(payload.changed?.every((name) => /^[a-z_]+$/.test(name))).toBe(true);
          const wire = JSON.stringify(payload);
          expect(wire).not.toContain('Ω');
          for (const value of [values.status, values.priority, values.due_date]) {
            if (value) expect(wire).not.toContain(`"${value}"`);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('bulk changes send one message', () => {
  async function boardWithTasks(count: number, labelled = false): Promise<Board & { labelId: string }> {
    const board = await newBoard();
    const label = await one<{ id: string }>(
      `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'common', '#000000', $2) returning id`,
      [board.workspaceId, board.ownerId],
    );
    await owner.query(
      `insert into public.tasks (project_id, title, position, created_by, label_ids)
       select $1, 'Task ' || n, 'a' || lpad(n::text, 4, '0'), $2, case when $4 then array[$3::uuid] else '{}' end
       from generate_series(1, $5) n`,
      [board.projectId, board.ownerId, label.id, labelled, count],
    );
    return { ...board, labelId: label.id };
  }

  test('deleting a label that 200 tasks carry sends exactly one bulk message', async () => {
    const board = await boardWithTasks(200, true);
    const { last } = await one<{ last: string }>(
      'select max(seq)::text as last from public.events where workspace_id = $1',
      [board.workspaceId],
    );
    const sent = await messagesSentBy(board.workspaceId, () =>
      change(board.ownerId, 'delete from public.labels where id = $1', [board.labelId]),
    );
    const seqFrom = Number(last) + 1;
    const seqTo = seqFrom + 200;
    expect(sent).toEqual([
      {
        topic: `workspace:${board.workspaceId}`,
        event: 'bulk',
        extension: 'broadcast',
        private: true,
        payload: {
          id: expect.any(String),
          type: 'bulk',
          seq_from: seqFrom,
          seq_to: seqTo,
          cursor: cursorOf(board.workspaceId, seqTo),
          previous_cursor: cursorOf(board.workspaceId, seqFrom - 1),
          types: ['label.deleted', 'task.updated'],
          project_ids: [board.projectId],
        },
      },
    ]);
    const { count } = await one<{ count: string }>(
      'select count(*)::text as count from public.events where workspace_id = $1 and seq between $2 and $3',
      [board.workspaceId, seqFrom, seqTo],
    );
    expect(Number(count)).toBe(201);
  });

  test('archiving a project with many tasks sends one message; so does deleting it', async () => {
    const board = await boardWithTasks(100);
    const archived = await messagesSentBy(board.workspaceId, () =>
      change(board.ownerId, 'update public.projects set archived_at = now() where id = $1', [
        board.projectId,
      ]),
    );
    expect(archived.map((message) => message.event)).toEqual(['project.archived']);
    const deleted = await messagesSentBy(board.workspaceId, () =>
      change(board.ownerId, 'delete from public.projects where id = $1', [board.projectId]),
    );
    expect(deleted.map((message) => message.event)).toEqual(['project.deleted']);
  });

  test('20 events in a transaction are 20 messages; 21 are one bulk message', async () => {
    const board = await newBoard();
    const insertTasks = (count: number, prefix: string) =>
      change(
        board.ownerId,
        `insert into public.tasks (project_id, title, position, created_by)
         select $1, 'Task ' || n, $4 || lpad(n::text, 4, '0'), $2 from generate_series(1, $3) n`,
        [board.projectId, board.ownerId, count, prefix],
      );
    const twenty = await messagesSentBy(board.workspaceId, () => insertTasks(20, 'b'));
    expect(twenty.map((message) => message.event)).toEqual(Array<string>(20).fill('task.created'));
    const seqs = twenty.map((message) => Number(message.payload.seq));
    expect(seqs).toEqual(seqs.map((_, index) => (seqs[0] ?? 0) + index));
    const twentyOne = await messagesSentBy(board.workspaceId, () => insertTasks(21, 'c'));
    expect(
      twentyOne.map((message) => [message.event, message.payload.seq_from, message.payload.seq_to]),
    ).toEqual([['bulk', (seqs.at(-1) ?? 0) + 1, (seqs.at(-1) ?? 0) + 21]]);
  });

  test('the threshold counts per workspace, and each workspace hears only of its own', async () => {
    const [busy, other] = [await newBoard(), await newBoard()];
    const sentToOther: Message[] = [];
    const sentToOne = await messagesSentBy(busy.workspaceId, async () => {
      sentToOther.push(
        ...(await messagesSentBy(other.workspaceId, () =>
          transaction(busy.ownerId, [
            [
              `insert into public.tasks (project_id, title, position, created_by)
               select $1, 'Task ' || n, 'c' || n, $2 from generate_series(1, 25) n`,
              [busy.projectId, busy.ownerId],
            ],
            [`update public.tasks set title = 'Other' where id = $1`, [other.taskId]],
          ]),
        )),
      );
    });
    expect(sentToOne.map((message) => message.event)).toEqual(['bulk']);
    expect(sentToOther.map((message) => [message.event, message.payload.task_id])).toEqual([
      ['task.updated', other.taskId],
    ]);
  });

  test('constraints set immediate mid-transaction send what is there once, and the rest at commit', async () => {
    const board = await newBoard();
    const sent = await messagesSentBy(board.workspaceId, () =>
      transaction(board.ownerId, [
        [`update public.tasks set title = 'One' where id = $1`, [board.taskId]],
        ['set constraints all immediate', []],
        [`update public.tasks set title = 'Two' where id = $1`, [board.taskId]],
      ]),
    );
    expect(sent.map((message) => message.payload.changed)).toEqual([['title'], ['title']]);
  });
});
