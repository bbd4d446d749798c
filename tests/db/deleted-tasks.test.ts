/**
 * Deleted tasks (the usability review, item 11; docs/decisions/0038): a deletion keeps the task, its comments
 * and its ready attachments in a trash nobody reaches through the Data API, RLS alone keeps a deleted task
 * out of every direct read and write, `private.restore_task` brings it back, and the housekeeping purges what
 * was deleted more than 30 days ago (and only that), queuing its files for removal.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { liveSessionClaims } from '../support/live-session.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { createRlsFixture, insertAttachment, type RlsFixture } from './rls-fixture.ts';

const owner = useTestDatabaseClient();
let db: pg.Client;
let fixture: RlsFixture;

beforeAll(async () => {
  db = owner.db;
  fixture = await createRlsFixture(db);
});

type Outcome = { rows: Record<string, unknown>[]; rowCount: number } | { code: string; hint: string | null };

/** Runs `sql` as `userId` (role authenticated, a live aal1 session), as PostgREST would; keeps what it did. */
async function as(userId: string, sql: string, values: unknown[] = []): Promise<Outcome> {
  await db.query('begin');
  try {
    await db.query(
      `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
      [liveSessionClaims(userId)],
    );
    const result = await db.query(sql, values);
    await db.query('commit');
    return { rows: result.rows as Record<string, unknown>[], rowCount: result.rowCount ?? 0 };
  } catch (error) {
    await db.query('rollback');
    const { code, hint } = error as { code?: string; hint?: string };
    return { code: code ?? 'unknown', hint: hint ?? null };
  }
}

/** A task of the fixture's project with a comment by the member and a ready attachment with its object. */
async function taskWithContent(): Promise<{ id: string; objectPath: string; number: number }> {
  const task = await db.query<{ id: string; number: number }>(
    `insert into public.tasks (project_id, title, description, position, created_by)
     values ($1, 'Kept task', 'What it was about', $2, $3) returning id, number`,
    [fixture.projectId, `b${randomUUID().replaceAll('-', '').slice(0, 8)}`, fixture.users.owner],
  );
  const row = task.rows[0];
  if (!row) throw new Error('no task');
  await db.query(`insert into public.comments (task_id, author_id, body) values ($1, $2, 'A comment')`, [
    row.id,
    fixture.users.member,
  ]);
  const attachmentId = await insertAttachment(db, fixture.workspaceId, row.id, fixture.users.member);
  const objectPath = `${fixture.workspaceId}/${row.id}/${attachmentId}`;
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata, created_at)
     values ('attachments', $1, '{"size": 1234}', now() - interval '2 hours')`,
    [objectPath],
  );
  return { id: row.id, objectPath, number: row.number };
}

async function deleteAsMember(taskId: string): Promise<void> {
  expect(await as(fixture.users.member, 'delete from public.tasks where id = $1', [taskId])).toMatchObject({
    rowCount: 1,
  });
}

async function queuedRemoval(path: string): Promise<boolean> {
  const result = await db.query(
    `select 1 from private.storage_removals where bucket_id = 'attachments' and object_path = $1`,
    [path],
  );
  return (result.rowCount ?? 0) > 0;
}

describe('a deleted task, through the Data API', () => {
  test('is gone from every read and write of its task, comments, attachments and files, for every role', async () => {
    const task = await taskWithContent();
    await deleteAsMember(task.id);
    for (const role of ['owner', 'admin', 'member', 'viewer', 'outsider'] as const) {
      const user = fixture.users[role];
      const reads = [
        ['select id from public.tasks where id = $1', [task.id]],
        ['select id from public.comments where task_id = $1', [task.id]],
        ['select id from public.attachments where task_id = $1', [task.id]],
        [`select name from storage.objects where bucket_id = 'attachments' and name = $1`, [task.objectPath]],
        [
          'select id from public.tasks where project_id = $1 and number = $2',
          [fixture.projectId, task.number],
        ],
      ] as const;
      for (const [sql, values] of reads)
        expect(await as(user, sql, [...values]), `${role}: ${sql}`).toEqual({ rows: [], rowCount: 0 });
      expect(await as(user, `update public.tasks set title = 'Back' where id = $1`, [task.id])).toEqual({
        rows: [],
        rowCount: 0,
      });
      expect(await as(user, 'delete from public.tasks where id = $1', [task.id])).toEqual({
        rows: [],
        rowCount: 0,
      });
      expect(
        await as(user, `insert into public.comments (task_id, author_id, body) values ($1, $2, 'Hello?')`, [
          task.id,
          user,
        ]),
        role,
      ).toMatchObject({ code: expect.stringMatching(/^(P0001|42501|23503)$/) });
      for (const trash of ['private.deleted_tasks', 'private.deleted_task_attachments']) {
        expect(await as(user, `select * from ${trash}`), `${role}: ${trash}`).toMatchObject({
          code: '42501',
        });
      }
    }
    // Still kept, whole, for a restore.
    const kept = await db.query<{ title: string; comments: number; files: number }>(
      `select d.task ->> 'title' as title, jsonb_array_length(d.comments) as comments,
         (select count(*)::integer from private.deleted_task_attachments a where a.task_id = d.id) as files
       from private.deleted_tasks d where d.id = $1`,
      [task.id],
    );
    expect(kept.rows).toEqual([{ title: 'Kept task', comments: 1, files: 1 }]);
    expect(await queuedRemoval(task.objectPath)).toBe(false);
  });

  test('is restored by whoever may delete it, as it was, with task.restored and no other event', async () => {
    const task = await taskWithContent();
    await deleteAsMember(task.id);
    const restore = 'select id, number, version from private.restore_task($1)';
    expect(await as(fixture.users.viewer, restore, [task.id])).toEqual({ code: 'P0001', hint: 'forbidden' });
    expect(await as(fixture.users.outsider, restore, [task.id])).toEqual({
      code: 'P0001',
      hint: 'not_found',
    });
    expect(await as(fixture.users.admin, restore, [randomUUID()])).toEqual({
      code: 'P0001',
      hint: 'not_found',
    });
    const before = await db.query<{ seq: string }>(
      'select max(seq)::text as seq from public.events where workspace_id = $1',
      [fixture.workspaceId],
    );
    expect(await as(fixture.users.member, restore, [task.id])).toMatchObject({
      rows: [{ id: task.id, number: task.number, version: 2 }],
    });
    expect(await as(fixture.users.member, restore, [task.id])).toEqual({
      code: 'P0001',
      hint: 'task_not_deleted',
    });
    const events = await db.query<{ type: string }>(
      'select type from public.events where workspace_id = $1 and seq > $2::bigint order by seq',
      [fixture.workspaceId, before.rows[0]?.seq],
    );
    expect(events.rows.map((event) => event.type)).toEqual(['task.restored']);
    const back = await as(
      fixture.users.viewer,
      `select t.title, t.description, (select count(*)::integer from public.comments c where c.task_id = t.id) as comments,
         (select count(*)::integer from public.attachments a where a.task_id = t.id and a.status = 'ready') as files,
         exists (select 1 from storage.objects o where o.bucket_id = 'attachments' and o.name = $2) as readable
       from public.tasks t where t.id = $1`,
      [task.id, task.objectPath],
    );
    expect(back).toMatchObject({
      rows: [{ title: 'Kept task', description: 'What it was about', comments: 1, files: 1, readable: true }],
    });
    expect(await db.query('select 1 from private.deleted_tasks where id = $1', [task.id])).toMatchObject({
      rowCount: 0,
    });
    expect(await queuedRemoval(task.objectPath)).toBe(false);
  });

  test("the sweep of files no attachment names leaves a deleted task's files alone", async () => {
    const task = await taskWithContent();
    await deleteAsMember(task.id);
    await db.query('select private.sweep_attachment_uploads(1000)');
    expect(await queuedRemoval(task.objectPath)).toBe(false);
  });

  test('a deleted project takes its deleted tasks with it: files queued, and restoring says project_deleted', async () => {
    const project = await db.query<{ id: string }>(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'GONE', 'Gone', $2) returning id`,
      [fixture.workspaceId, fixture.users.owner],
    );
    const projectId = project.rows[0]?.id;
    const task = await db.query<{ id: string }>(
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'In a doomed project', 'a0', $2)
       returning id`,
      [projectId, fixture.users.owner],
    );
    const taskId = task.rows[0]?.id ?? '';
    const attachmentId = await insertAttachment(db, fixture.workspaceId, taskId, fixture.users.member);
    const objectPath = `${fixture.workspaceId}/${taskId}/${attachmentId}`;
    await deleteAsMember(taskId);
    expect(
      await as(fixture.users.admin, 'delete from public.projects where id = $1', [projectId]),
    ).toMatchObject({
      rowCount: 1,
    });
    expect(await queuedRemoval(objectPath)).toBe(true);
    const entry = await db.query('select task, comments from private.deleted_tasks where id = $1', [taskId]);
    expect(entry.rows).toEqual([{ task: null, comments: null }]);
    expect(await as(fixture.users.member, 'select id from private.restore_task($1)', [taskId])).toEqual({
      code: 'P0001',
      hint: 'project_deleted',
    });
  });
});

describe('purging the trash', () => {
  test('removes the tasks deleted more than 30 days ago, and only those, queuing their files', async () => {
    const [old, recent] = [await taskWithContent(), await taskWithContent()];
    await deleteAsMember(old.id);
    await deleteAsMember(recent.id);
    await db.query(
      `update private.deleted_tasks set deleted_at = now() - interval '30 days 1 minute' where id = $1`,
      [old.id],
    );
    await db.query(
      `update private.deleted_tasks set deleted_at = now() - interval '29 days 23 hours' where id = $1`,
      [recent.id],
    );
    const { rows } = await db.query<{ kind: string; deleted: string }>(
      `select kind, deleted::text from private.delete_expired_rows() where kind = 'deleted_tasks'`,
    );
    expect(rows).toEqual([{ kind: 'deleted_tasks', deleted: '1' }]);
    const left = await db.query<{ id: string }>('select id from private.deleted_tasks where id = any($1)', [
      [old.id, recent.id],
    ]);
    expect(left.rows).toEqual([{ id: recent.id }]);
    expect(await queuedRemoval(old.objectPath)).toBe(true);
    expect(await queuedRemoval(recent.objectPath)).toBe(false);
    expect(await as(fixture.users.member, 'select id from private.restore_task($1)', [old.id])).toEqual({
      code: 'P0001',
      hint: 'not_found',
    });
  });

  test('nobody but the service purges or restores past the rules', async () => {
    for (const statement of [
      'select private.purge_deleted_tasks(0, 10)',
      'select * from private.delete_expired_rows()',
    ]) {
      expect(await as(fixture.users.owner, statement), statement).toMatchObject({ code: '42501' });
    }
  });
});
