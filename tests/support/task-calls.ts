/**
 * Calls on tasks as API tests make them — in a project (create, list), by key, and flat by id (get,
 * patch, delete, restore, move) — and what the database holds for them, read as the service.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { expect } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf, type Sendable } from './api-client.ts';
import { callApi, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { jsonRequest, labelCalls, projectCalls } from './resource-calls.ts';
import { withBearer } from './test-users.ts';
import type { WorkspaceFixture } from './workspace-fixture.ts';
import { asService } from './service-transaction.ts';

export type Task = components['schemas']['Task'];
export type TaskList = components['schemas']['TaskList'];
export type TaskCounts = components['schemas']['TaskCounts'];
export type Project = components['schemas']['Project'];
type CreateTaskBody = components['schemas']['CreateTask'];
export type CreateTask = Sendable<
  CreateTaskBody,
  'description' | 'status' | 'priority' | 'assignee_id' | 'due_date' | 'label_ids'
>;
export type UpdateTask = components['schemas']['UpdateTask'];
export type MoveTask = components['schemas']['MoveTask'];

export const tasksPathOf = (workspace: WorkspaceFixture, projectKey: string) =>
  `${workspace.path}/projects/${projectKey}/tasks`;

/**
 * The task calls, typed by the contract. `raw` sends bodies the contract forbids (validation tests),
 * deliberately untyped.
 */
export function taskCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const inProject = (workspace: WorkspaceFixture, projectKey: string) => ({
    path: { slug: workspace.slug, key: projectKey },
  });
  const byId = (id: string) => ({ path: { id } });
  const flat = (id: string) => `/api/v1/tasks/${id}`;
  return {
    create: (
      bearer: string,
      workspace: WorkspaceFixture,
      projectKey: string,
      body: CreateTask,
      headers?: RequestHeaders,
    ) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/projects/{key}/tasks', {
          params: inProject(workspace, projectKey),
          body: body as CreateTaskBody,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    /** `query` as it goes after the path, e.g. `?sort=-priority`. */
    list: (bearer: string, workspace: WorkspaceFixture, projectKey: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/projects/{key}/tasks', {
          params: inProject(workspace, projectKey),
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    /** Every project's tasks (listWorkspaceTasks); `query` as it goes after the path. */
    listInWorkspace: (bearer: string, workspace: WorkspaceFixture, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/tasks', {
          params: { path: { slug: workspace.slug } },
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    countInProject: (bearer: string, workspace: WorkspaceFixture, projectKey: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/projects/{key}/task-counts', {
          params: inProject(workspace, projectKey),
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    countInWorkspace: (bearer: string, workspace: WorkspaceFixture, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/task-counts', {
          params: { path: { slug: workspace.slug } },
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    getByKey: (bearer: string, workspace: WorkspaceFixture, taskKey: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/tasks/{task_key}', {
          params: { path: { slug: workspace.slug, task_key: taskKey } },
          headers: withAuthorization(bearer, headers),
        }),
      ),
    get: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/tasks/{id}', { params: byId(id), headers: withAuthorization(bearer, headers) }),
      ),
    update: (bearer: string, id: string, body: UpdateTask, headers?: RequestHeaders) =>
      responseOf(
        client.PATCH('/v1/tasks/{id}', {
          params: byId(id),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/tasks/{id}', { params: byId(id), headers: withAuthorization(bearer, headers) }),
      ),
    restore: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/tasks/{id}/restore', {
          params: byId(id),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    move: (bearer: string, id: string, body: MoveTask, headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/tasks/{id}/move', {
          params: byId(id),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: {
      create: (
        bearer: string,
        workspace: WorkspaceFixture,
        projectKey: string,
        body: unknown,
        headers?: RequestHeaders,
      ): Promise<ApiResponse> =>
        callApi(
          app,
          tasksPathOf(workspace, projectKey),
          withBearer(bearer, jsonRequest('POST', body, headers)),
        ),
      update: (bearer: string, id: string, body: unknown, headers?: RequestHeaders): Promise<ApiResponse> =>
        callApi(app, flat(id), withBearer(bearer, jsonRequest('PATCH', body, headers))),
      move: (bearer: string, id: string, body: unknown, headers?: RequestHeaders): Promise<ApiResponse> =>
        callApi(app, `${flat(id)}/move`, withBearer(bearer, jsonRequest('POST', body, headers))),
    },
  };
}

export type TaskCalls = ReturnType<typeof taskCalls>;

export const uniqueProjectKey = () => `T${randomUUID().replaceAll('-', '').slice(0, 6).toUpperCase()}`;

/** A project the workspace's admin creates through the API (with `bearer`, an aal2 one, say). */
export async function projectIn(
  app: Hono<AppEnv>,
  workspace: WorkspaceFixture,
  bearer = workspace.admin.accessToken,
): Promise<Project> {
  const response = await projectCalls(app, workspace).create(bearer, {
    key: uniqueProjectKey(),
    name: 'Board',
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Archives the project through the API, as its admin. */
export async function archive(app: Hono<AppEnv>, workspace: WorkspaceFixture, projectKey: string) {
  const response = await projectCalls(app, workspace).update(workspace.admin.accessToken, projectKey, {
    archived: true,
  });
  expect(response.status, response.text).toBe(200);
}

/** A task the workspace's member creates through the API. */
export async function taskIn(
  app: Hono<AppEnv>,
  workspace: WorkspaceFixture,
  projectKey: string,
  fields: Partial<CreateTask> = {},
): Promise<Task> {
  const response = await taskCalls(app).create(workspace.member.accessToken, workspace, projectKey, {
    title: 'A task',
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A label the workspace's member creates through the API; its id. */
export async function labelIn(app: Hono<AppEnv>, workspace: WorkspaceFixture): Promise<string> {
  const response = await labelCalls(app, workspace).create(workspace.member.accessToken, {
    name: `label ${randomUUID().slice(0, 8)}`,
    color: '#3366ff',
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

export interface StoredTask extends Record<string, unknown> {
  id: string;
  number: number;
  title: string;
  status: string;
  position: string;
  assignee_id: string | null;
  label_ids: string[];
  version: number;
  completed_at: Date | null;
}

/** The project's tasks as the database holds them, by number. */
export function storedTasks(db: Database, projectId: string): Promise<StoredTask[]> {
  return asService(db, (sql) =>
    sql.query<StoredTask>(
      `select id, number, title, status::text, position, assignee_id, label_ids, version, completed_at
       from public.tasks where project_id = $1 order by number`,
      [projectId],
    ),
  );
}

export async function storedTask(db: Database, id: string): Promise<StoredTask | undefined> {
  const [row] = await asService(db, (sql) =>
    sql.query<StoredTask>(
      `select id, number, title, status::text, position, assignee_id, label_ids, version, completed_at
       from public.tasks where id = $1`,
      [id],
    ),
  );
  return row;
}

export interface StoredEvent extends Record<string, unknown> {
  type: string;
  actor_id: string | null;
  actor_api_token_id: string | null;
  data: Record<string, unknown>;
  previous_attributes: Record<string, unknown> | null;
}

/** The events the log holds for a task, oldest first. */
export function eventsOfTask(db: Database, taskId: string): Promise<StoredEvent[]> {
  return asService(db, (sql) =>
    sql.query<StoredEvent>(
      `select type, actor_id, actor_api_token_id, data, previous_attributes
       from public.events where task_id = $1 order by seq`,
      [taskId],
    ),
  );
}
