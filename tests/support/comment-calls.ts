/**
 * Calls on a task's comments, typed by the contract. `raw` sends bodies the contract forbids,
 * deliberately untyped.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf } from './api-client.ts';
import { callApi, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { jsonRequest } from './resource-calls.ts';
import { withBearer } from './test-users.ts';

type Schemas = components['schemas'];
export type CreateComment = Schemas['CreateComment'];
export type UpdateComment = Schemas['UpdateComment'];

export function commentCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const onTask = (taskId: string) => ({ path: { id: taskId } });
  const item = (id: string) => ({ path: { id } });
  return {
    create: (bearer: string, taskId: string, body: CreateComment, headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/tasks/{id}/comments', {
          params: onTask(taskId),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    /** `query` as it goes after the path, e.g. `?limit=2`. */
    list: (bearer: string, taskId: string, query = '') =>
      responseOf(
        client.GET('/v1/tasks/{id}/comments', {
          params: onTask(taskId),
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    get: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/comments/{id}', { params: item(id), headers: withAuthorization(bearer, headers) }),
      ),
    update: (bearer: string, id: string, body: UpdateComment, headers?: RequestHeaders) =>
      responseOf(
        client.PATCH('/v1/comments/{id}', {
          params: item(id),
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/comments/{id}', { params: item(id), headers: withAuthorization(bearer, headers) }),
      ),
    raw: {
      create: (
        bearer: string,
        taskId: string,
        body: unknown,
        headers?: RequestHeaders,
      ): Promise<ApiResponse> =>
        callApi(
          app,
          `/api/v1/tasks/${taskId}/comments`,
          withBearer(bearer, jsonRequest('POST', body, headers)),
        ),
      update: (bearer: string, id: string, body: unknown, headers?: RequestHeaders): Promise<ApiResponse> =>
        callApi(app, `/api/v1/comments/${id}`, withBearer(bearer, jsonRequest('PATCH', body, headers))),
    },
  };
}
