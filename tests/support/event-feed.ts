/**
 * For tests of the event log through the API: reading a workspace's feed and a task's activity, and
 * changes made in SQL as a given caller (so the event records its actor) where no route makes them yet.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { expect } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf } from './api-client.ts';
import type { WorkspaceFixture } from './workspace-fixture.ts';
import { asService } from './service-transaction.ts';

export type Event = components['schemas']['Event'];
export type EventFeed = components['schemas']['EventFeed'];
export type EventList = components['schemas']['EventList'];

/**
 * `GET …/workspaces/{slug}/events` + `query` (e.g. `?after=…&types=task.*`), as it is written; `feedAfter`
 * is sent as the Feed-After header.
 */
export function callFeed(
  app: Hono<AppEnv>,
  bearer: string,
  workspace: Pick<WorkspaceFixture, 'slug'>,
  query = '',
  feedAfter?: string,
) {
  return responseOf(
    apiClient(app).GET('/v1/workspaces/{slug}/events', {
      params: { path: { slug: workspace.slug } },
      headers: {
        ...withAuthorization(bearer),
        ...(feedAfter === undefined ? {} : { 'Feed-After': feedAfter }),
      },
      ...rawQuery(query),
    }),
  );
}

/** A page of the feed, which must be a `200`. */
export async function readFeed(
  app: Hono<AppEnv>,
  bearer: string,
  workspace: Pick<WorkspaceFixture, 'slug'>,
  query = '',
): Promise<EventFeed> {
  const response = await callFeed(app, bearer, workspace, query);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** `GET /v1/tasks/{id}/events` + `query`, as it is written. */
export function callActivity(app: Hono<AppEnv>, bearer: string, taskId: string, query = '') {
  return responseOf(
    apiClient(app).GET('/v1/tasks/{id}/events', {
      params: { path: { id: taskId } },
      headers: withAuthorization(bearer),
      ...rawQuery(query),
    }),
  );
}

/** Who a change made in SQL is made by: a user, through one of their API tokens or not. */
export interface SqlActor {
  userId: string;
  apiTokenId?: string;
}

/**
 * Runs `statement` as the service, with the JWT claims of `actor` set as the API sets them, so that the
 * triggers record the actor; answers its rows.
 */
export function writeAs<Row extends Record<string, unknown>>(
  db: Database,
  actor: SqlActor,
  statement: string,
  values: unknown[],
): Promise<Row[]> {
  return asService(db, async (sql) => {
    const claims = { sub: actor.userId, role: 'authenticated', api_token_id: actor.apiTokenId ?? null };
    await sql.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
    return sql.query<Row>(statement, values);
  });
}

/** Inserts a task into the project as `actor`; its id. */
export async function insertTaskAs(
  db: Database,
  actor: SqlActor,
  projectId: string,
  title = `Task ${randomUUID().slice(0, 8)}`,
): Promise<string> {
  const [row] = await writeAs<{ id: string }>(
    db,
    actor,
    `insert into public.tasks (project_id, title, position, created_by) values ($1, $2, $3, $4) returning id`,
    [projectId, title, `a${randomUUID()}`, actor.userId],
  );
  if (!row) throw new Error('insert into tasks returned no row');
  return row.id;
}

/** Inserts a project into the workspace as the service; its id. */
export async function insertProject(
  db: Database,
  workspace: Pick<WorkspaceFixture, 'id' | 'owner'>,
): Promise<string> {
  const [row] = await writeAs<{ id: string }>(
    db,
    { userId: workspace.owner.id },
    `insert into public.projects (workspace_id, key, name, created_by) values ($1, $2, 'Events', $3) returning id`,
    [workspace.id, `EV${randomUUID().replaceAll('-', '').slice(0, 6).toUpperCase()}`, workspace.owner.id],
  );
  if (!row) throw new Error('insert into projects returned no row');
  return row.id;
}
