/**
 * Calls on one kind of resource, as API tests make them: create in its collection, list it, and get,
 * update (merge patch) or remove one item of it by its `{id}` (a slug, a key or a UUID).
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { callApi, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { withBearer } from './test-users.ts';

export type { RequestHeaders };

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

/** The calls on the collection at `collection`, e.g. `/api/v1/workspaces/acme/labels`. */
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
