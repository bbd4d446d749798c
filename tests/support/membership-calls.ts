/**
 * Calls on who belongs to a workspace — its members and its invitations, and accepting one — typed by
 * the contract. `raw` sends bodies and addresses the contract forbids, deliberately untyped.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf } from './api-client.ts';
import type { RequestHeaders } from './api-request.ts';
import { resourceCalls } from './resource-calls.ts';
import type { WorkspaceFixture } from './workspace-fixture.ts';

type Schemas = components['schemas'];

/** The members of `workspace`. A patch is sent as `application/merge-patch+json`, as the web app does. */
export function memberCalls(app: Hono<AppEnv>, workspace: WorkspaceFixture) {
  const client = apiClient(app);
  const item = (userId: string) => ({ path: { slug: workspace.slug, user_id: userId } });
  return {
    /** `query` as it goes after the path, e.g. `?limit=2`. */
    list: (bearer: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/members', {
          params: { path: { slug: workspace.slug } },
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    get: (bearer: string, userId: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/members/{user_id}', {
          params: item(userId),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    update: (bearer: string, userId: string, body: Schemas['UpdateMember'], headers: RequestHeaders = {}) =>
      responseOf(
        client.PATCH('/v1/workspaces/{slug}/members/{user_id}', {
          params: item(userId),
          body,
          headers: withAuthorization(bearer, { 'Content-Type': 'application/merge-patch+json', ...headers }),
        }),
      ),
    remove: (bearer: string, userId: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/workspaces/{slug}/members/{user_id}', {
          params: item(userId),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: resourceCalls(app, `${workspace.path}/members`),
  };
}

/** The invitations of `workspace`. */
export function invitationCalls(app: Hono<AppEnv>, workspace: WorkspaceFixture) {
  const client = apiClient(app);
  const collection = { path: { slug: workspace.slug } };
  const item = (id: string) => ({ path: { slug: workspace.slug, id } });
  return {
    create: (bearer: string, body: Schemas['CreateInvitation'], headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/workspaces/{slug}/invitations', {
          params: collection,
          body,
          headers: withAuthorization(bearer, headers),
        }),
      ),
    /** `query` as it goes after the path, e.g. `?limit=2`. */
    list: (bearer: string, query = '') =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/invitations', {
          params: collection,
          headers: withAuthorization(bearer),
          ...rawQuery(query),
        }),
      ),
    get: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/workspaces/{slug}/invitations/{id}', {
          params: item(id),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    remove: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/workspaces/{slug}/invitations/{id}', {
          params: item(id),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: resourceCalls(app, `${workspace.path}/invitations`),
  };
}

/**
 * What the invitation page shows of the invitation whose secret is `token`, to the person `bearer`, or
 * to someone signed out (no Authorization header) when `bearer` is undefined.
 */
export const previewInvitation = (app: Hono<AppEnv>, bearer: string | undefined, token: string) =>
  responseOf(
    apiClient(app).GET('/v1/invitations/{token}', {
      params: { path: { token } },
      headers: bearer === undefined ? {} : withAuthorization(bearer),
    }),
  );

/** Accepts the invitation whose secret is `token`, as the person `bearer` signs in as. */
export const acceptInvitation = (
  app: Hono<AppEnv>,
  bearer: string,
  token: string,
  headers?: RequestHeaders,
) =>
  responseOf(
    apiClient(app).POST('/v1/invitations/{token}/accept', {
      params: { path: { token } },
      headers: withAuthorization(bearer, headers),
    }),
  );
