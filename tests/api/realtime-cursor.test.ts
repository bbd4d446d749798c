/**
 * A live board catches up from the change feed (docs/realtime.md): the `cursor` in each broadcast the
 * database sends (supabase/migrations/20261129200000_content_free_broadcasts.sql) is the feed's own
 * cursor for that event, so `GET /v1/workspaces/{slug}/events?after=<cursor>` continues right after it;
 * its `previous_cursor` reads the event itself, for a client that has no position yet.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useTestApp } from '../support/api-app.ts';
import { readFeed } from '../support/event-feed.ts';
import { labelCalls } from '../support/resource-calls.ts';
import { projectIn, taskCalls, taskIn } from '../support/task-calls.ts';
import { createWorkspaceWithRoles, type WorkspaceFixture } from '../support/workspace-fixture.ts';

const api = useTestApp();
let observer: pg.Client;
let workspace: WorkspaceFixture;

beforeAll(async () => {
  observer = new pg.Client({ connectionString: api.databaseUrl });
  await observer.connect();
  workspace = await createWorkspaceWithRoles(api.db);
});

afterAll(async () => {
  await observer.end();
});

interface Broadcast {
  event: string;
  payload: { seq?: number; seq_to?: number; cursor: string; previous_cursor: string; type: string };
}

/** The broadcasts sent on the workspace's topic, in feed order. */
async function broadcasts(): Promise<Broadcast[]> {
  const { rows } = await observer.query<Broadcast>(
    `select event, payload from realtime.messages where topic = $1
     order by coalesce((payload ->> 'seq')::bigint, (payload ->> 'seq_to')::bigint)`,
    [`workspace:${workspace.id}`],
  );
  return rows;
}

describe('the cursor of a broadcast', () => {
  test('continues the feed right after its event, as the feed itself would', async () => {
    const project = await projectIn(api.app, workspace);
    const task = await taskIn(api.app, workspace, project.key);
    const tasks = taskCalls(api.app);
    const bearer = workspace.member.accessToken;
    expect((await tasks.move(bearer, task.id, { status: 'in_progress' })).status).toBe(200);
    expect((await tasks.update(bearer, task.id, { title: 'Renamed' })).status).toBe(200);

    const sent = await broadcasts();
    const [created, moved, updated] = sent.slice(-3);
    expect([created?.event, moved?.event, updated?.event]).toEqual([
      'task.created',
      'task.moved',
      'task.updated',
    ]);

    // The viewer, after applying the move, asks for what came next: the update, and nothing else.
    const next = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      `?after=${moved?.payload.cursor}`,
    );
    expect(next.data.map((event) => [event.type, event.seq])).toEqual([
      ['task.updated', updated?.payload.seq],
    ]);
    expect(next.next_cursor).toBe(updated?.payload.cursor);

    // And a page of the feed that ends at the move answers the move's very cursor.
    const page = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      `?limit=1&after=${created?.payload.cursor}`,
    );
    expect(page.data.map((event) => event.type)).toEqual(['task.moved']);
    expect(page.next_cursor).toBe(moved?.payload.cursor);
  });

  test('its previous cursor reads the feed from its own event, with the values the message leaves out', async () => {
    const project = await projectIn(api.app, workspace);
    const task = await taskIn(api.app, workspace, project.key);
    const tasks = taskCalls(api.app);
    expect(
      (await tasks.update(workspace.member.accessToken, task.id, { title: 'Read from the feed' })).status,
    ).toBe(200);
    const updated = (await broadcasts()).at(-1);
    expect(updated?.event).toBe('task.updated');
    expect(JSON.stringify(updated?.payload)).not.toContain('Read from the feed');

    const page = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      `?limit=1&after=${updated?.payload.previous_cursor}`,
    );
    expect(
      page.data.map((event) => [event.type, event.seq, (event.data as { title?: string }).title]),
    ).toEqual([['task.updated', updated?.payload.seq, 'Read from the feed']]);
    expect(page.next_cursor).toBe(updated?.payload.cursor);
  });

  test("a bulk message's cursor continues after the last event it stands for", async () => {
    const project = await projectIn(api.app, workspace);
    const label = await labelCalls(api.app, workspace).create(workspace.member.accessToken, {
      name: 'everywhere',
      color: '#3366ff',
    });
    expect(label.status).toBe(201);
    for (let index = 0; index < 21; index += 1) {
      await taskIn(api.app, workspace, project.key, { label_ids: [label.body.id] });
    }
    const removed = await labelCalls(api.app, workspace).remove(workspace.admin.accessToken, label.body.id);
    expect(removed.status).toBe(204);

    const bulk = (await broadcasts()).at(-1);
    expect(bulk?.event).toBe('bulk');
    const whole = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      `?after=${bulk?.payload.previous_cursor}`,
    );
    expect(whole.data.map((event) => event.type)).toEqual([
      ...Array<string>(21).fill('task.updated'),
      'label.deleted',
    ]);
    const after = await readFeed(
      api.app,
      workspace.viewer.accessToken,
      workspace,
      `?after=${bulk?.payload.cursor}`,
    );
    expect(after.data).toEqual([]);
    expect(after.next_cursor).toBe(bulk?.payload.cursor);
    const { rows } = await observer.query<{ head: number }>(
      'select max(seq)::int as head from public.events where workspace_id = $1',
      [workspace.id],
    );
    expect(bulk?.payload.seq_to).toBe(rows[0]?.head);
  });
});
