/**
 * Deleting a task or a project redacts what the event log kept of their content (the first security review,
 * item 10): in SQL, so that a delete by any path (the API, `/rest/v1`, a cascade) leaves no description or
 * comment body readable in the feed. Its triggers: supabase/migrations/…_create_events.sql.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabaseClient } from '../support/test-database.ts';

const database = useTestDatabaseClient();
let owner: pg.Client;

beforeAll(() => {
  owner = database.db;
});

async function one<Row extends Record<string, unknown>>(text: string, values: unknown[]): Promise<Row> {
  const { rows } = await owner.query<Row>(text, values);
  if (!rows[0]) throw new Error(`no row: ${text}`);
  return rows[0];
}

/** A workspace with a project, a task and a comment, each holding `secret`, made as the database owner. */
async function boardWithSecrets(secret: string) {
  const userId = randomUUID();
  await owner.query(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
     values ($1, $2, 'authenticated', 'authenticated', '{}', now(), now())`,
    [userId, `${userId}@redaction.test`],
  );
  const slug = `rd-${randomUUID().slice(0, 8)}`;
  const workspace = await one<{ id: string }>(
    `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
    [slug, userId],
  );
  await owner.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    workspace.id,
    userId,
  ]);
  const project = await one<{ id: string }>(
    `insert into public.projects (workspace_id, key, name, description, created_by)
     values ($1, 'RD', 'Redacted', $2, $3) returning id`,
    [workspace.id, `${secret} project`, userId],
  );
  const task = await one<{ id: string }>(
    `insert into public.tasks (project_id, title, description, position, created_by)
     values ($1, 'Title', $2, 'a', $3) returning id`,
    [project.id, `${secret} task`, userId],
  );
  await owner.query(`update public.tasks set description = $2 where id = $1`, [task.id, `${secret} task 2`]);
  const comment = await one<{ id: string }>(
    `insert into public.comments (task_id, author_id, body) values ($1, $2, $3) returning id`,
    [task.id, userId, `${secret} comment`],
  );
  await owner.query(`update public.comments set body = $2 where id = $1`, [
    comment.id,
    `${secret} comment 2`,
  ]);
  return { workspaceId: workspace.id, projectId: project.id, taskId: task.id };
}

async function eventText(workspaceId: string): Promise<string> {
  const { rows } = await owner.query<{ type: string; data: unknown; previous_attributes: unknown }>(
    `select type, data, previous_attributes from public.events where workspace_id = $1 order by seq`,
    [workspaceId],
  );
  return JSON.stringify(rows);
}

describe('redacting the events of deleted content', () => {
  test('a deleted task’s events keep no description, its comments’ events no body', async () => {
    const board = await boardWithSecrets('TASK-SECRET');
    expect(await eventText(board.workspaceId)).toContain('TASK-SECRET task 2');

    await owner.query('delete from public.tasks where id = $1', [board.taskId]);

    const text = await eventText(board.workspaceId);
    expect(text).not.toMatch(/TASK-SECRET (task|comment)/);
    expect(text).toContain('TASK-SECRET project');
    const { rows } = await owner.query<{ type: string; title: string; description: string }>(
      `select type, data ->> 'title' as title, data ->> 'description' as description
       from public.events where task_id = $1 and type like 'task.%' order by seq`,
      [board.taskId],
    );
    expect(rows).toEqual([
      { type: 'task.created', title: 'Title', description: '' },
      { type: 'task.updated', title: 'Title', description: '' },
      { type: 'task.deleted', title: 'Title', description: '' },
    ]);
  });

  test('a deleted project’s events keep no description, nor do its tasks’ and comments’ events', async () => {
    const board = await boardWithSecrets('PROJECT-SECRET');
    const other = await boardWithSecrets('OTHER-SECRET');

    await owner.query('delete from public.projects where id = $1', [board.projectId]);

    expect(await eventText(board.workspaceId)).not.toContain('PROJECT-SECRET');
    expect(await eventText(other.workspaceId)).toContain('OTHER-SECRET comment 2');
  });
});
