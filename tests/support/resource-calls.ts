/**
 * Calls on one kind of resource, as API tests make them: create in its collection, list it, and get,
 * update (merge patch) or remove one item of it by its `{id}` (a slug, a key or a UUID).
 *
 * `workspaceCalls`, `projectCalls` and `labelCalls` are typed by the contract (api-client.ts);
 * `resourceCalls` is the untyped path, for bodies and addresses the contract forbids, and each typed
 * set carries it as `raw`.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf, type Sendable } from './api-client.ts';
import { callApi, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { withBearer } from './test-users.ts';
import type { WorkspaceFixture } from './workspace-fixture.ts';

export type { RequestHeaders };
type Schemas = components['schemas'];
export type CreateProject = Sendable<Schemas['CreateProject'], 'description'>;

/** A timestamp as the API writes it: ISO 8601 in UTC with milliseconds. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function jsonRequest(method: string, body: unknown, headers: RequestHeaders = {}): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export interface ResourceCalls {
  create(bearer: string, body: unknown, headers?: RequestHeaders): Promise<ApiResponse>;
  /** `query` as it goes after the path, e.g. `?limit=2`. */
  list(bearer: string, query?: string): Promise<ApiResponse>;
  get(bearer: string, id: string, headers?: RequestHeaders): Promise<ApiResponse>;
  update(bearer: string, id: string, body: unknown, headers?: RequestHeaders): Promise<ApiResponse>;
  remove(bearer: string, id: string, headers?: RequestHeaders): Promise<ApiResponse>;
}

/** The untyped calls on the collection at `collection`, e.g. `/api/v1/workspaces/acme/labels`. */
export function resourceCalls(app: Hono<AppEnv>, collection: string): ResourceCalls {
  const item = (id: string) => `${collection}/${id}`;
  return {
    create: (bearer, body, headers) =>
      callApi(app, collection, withBearer(bearer, jsonRequest('POST', body, headers))),
    list: (bearer, query = '') => callApi(app, `${collection}${query}`, withBearer(bearer)),
    get: (bearer, id, headers = {}) => callApi(app, item(id), withBearer(bearer, { headers })),
    update: (bearer, id, body, headers) =>
      callApi(app, item(id), withBearer(bearer, jsonRequest('PATCH', body, headers))),
    remove: (bearer, id, headers = {}) =>
      callApi(app, item(id), withBearer(bearer, { method: 'DELETE', headers })),
  };
}

export const WORKSPACES = '/api/v1/workspaces';

/** The workspaces of the caller, typed; `raw` for what the contract forbids. */
export function workspaceCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const item = (slug: string) => ({ path: { slug } });
  return {
    create: (bearer: string, body: Schemas['CreateWorkspace'], headers?: RequestHeaders) =>
      responseOf(client.POST('/v1/workspaces', { body, headers: withAuthorization(bearer, headers) })),
    list: (bearer: string, query = '') =>
      responseOf(client.GET('/v1/workspaces', { headers: withAuthorization(bearer), ...rawQuery(query) })),
    get: (bearer: string, slug: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}', {
          params: item(slug),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    update: (bearer: string, slug: string, body: Schemas['UpdateWorkspace'], headers?: RequestHeaders) =>
      responseOf(
        client.PATCH('/v1/workspaces/{slug}', {
          params: item(slug),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, slug: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/workspaces/{slug}', {
          params: item(slug),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: resourceCalls(app, WORKSPACES),
  };
}

/** The projects of `workspace`, typed; `raw` for what the contract forbids. */
export function projectCalls(app: Hono<AppEnv>, workspace: WorkspaceFixture) {
  const client = apiClient(app);
  const collection = { path: { slug: workspace.slug } };
  const item = (key: string) => ({ path: { slug: workspace.slug, key } });
  return {
    create: (bearer: string, body: CreateProject, headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/projects', {
          params: collection,
          body: body as Schemas['CreateProject'],
          headers: withAuthorization(bearer, headers),
        }),
      ),
    list: (bearer: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/projects', {
          params: collection,
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    get: (bearer: string, key: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/projects/{key}', {
          params: item(key),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    update: (bearer: string, key: string, body: Schemas['UpdateProject'], headers?: RequestHeaders) =>
      responseOf(
        client.PATCH('/v1/workspaces/{slug}/projects/{key}', {
          params: item(key),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, key: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/workspaces/{slug}/projects/{key}', {
          params: item(key),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: resourceCalls(app, `${workspace.path}/projects`),
  };
}

/** The labels of `workspace`, typed; `raw` for what the contract forbids. */
export function labelCalls(app: Hono<AppEnv>, workspace: WorkspaceFixture) {
  const client = apiClient(app);
  const collection = { path: { slug: workspace.slug } };
  const item = (id: string) => ({ path: { slug: workspace.slug, id } });
  return {
    create: (bearer: string, body: Schemas['CreateLabel'], headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/labels', {
          params: collection,
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    list: (bearer: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/labels', {
          params: collection,
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    get: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/labels/{id}', {
          params: item(id),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    update: (bearer: string, id: string, body: Schemas['UpdateLabel'], headers?: RequestHeaders) =>
      responseOf(
        client.PATCH('/v1/workspaces/{slug}/labels/{id}', {
          params: item(id),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/workspaces/{slug}/labels/{id}', {
          params: item(id),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: resourceCalls(app, `${workspace.path}/labels`),
  };
}
