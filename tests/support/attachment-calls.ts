/**
 * Calls on a task's attachments (/v1/tasks/{id}/attachments, /v1/attachments/{id}[/…]) and on the
 * caller's avatar (/v1/me/avatar[/complete]), typed by the contract.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { apiClient, bearer, rawQuery, responseOf } from './api-client.ts';

type Schemas = components['schemas'];
export type CreateAttachment = Schemas['CreateAttachment'];
export type CreateAvatarUpload = Schemas['CreateAvatarUpload'];

export function attachmentCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const onTask = (taskId: string) => ({ path: { id: taskId } });
  const item = (id: string) => ({ path: { id } });
  return {
    declare: (token: string, taskId: string, body: CreateAttachment) =>
      responseOf(
        client.POST('/v1/tasks/{id}/attachments', { params: onTask(taskId), body, headers: bearer(token) }),
      ),
    complete: (token: string, id: string) =>
      responseOf(client.POST('/v1/attachments/{id}/complete', { params: item(id), headers: bearer(token) })),
    download: (token: string, id: string) =>
      responseOf(client.GET('/v1/attachments/{id}/download', { params: item(id), headers: bearer(token) })),
    remove: (token: string, id: string) =>
      responseOf(client.DELETE('/v1/attachments/{id}', { params: item(id), headers: bearer(token) })),
    /** `query` as it goes after the path, e.g. `?limit=2`. */
    list: (token: string, taskId: string, query = '') =>
      responseOf(
        client.GET('/v1/tasks/{id}/attachments', {
          params: onTask(taskId),
          headers: bearer(token),
          ...rawQuery(query),
        }),
      ),
  };
}

export function avatarCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  return {
    start: (token: string, body: CreateAvatarUpload) =>
      responseOf(client.POST('/v1/me/avatar', { body, headers: bearer(token) })),
    complete: (token: string) =>
      responseOf(client.POST('/v1/me/avatar/complete', { headers: bearer(token) })),
  };
}
