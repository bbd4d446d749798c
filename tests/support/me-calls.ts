/**
 * Calls on the caller's own account (/v1/me) and personal API tokens (/v1/me/tokens), typed by the
 * contract. `raw` sends bodies and queries the contract forbids, deliberately untyped.
 */
import type { Hono } from 'hono';
import type { components } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { apiClient, bearer as withAuthorization, rawQuery, responseOf, type Sendable } from './api-client.ts';
import type { RequestHeaders } from './api-request.ts';
import { resourceCalls } from './resource-calls.ts';

type Schemas = components['schemas'];
export type CreateApiToken = Sendable<Schemas['CreateApiToken'], 'expires_in_days'>;

export const ME = '/api/v1/me';
export const TOKENS = '/api/v1/me/tokens';

export function meCalls(app: Hono<AppEnv>) {
  const client = apiClient(app);
  const token = (id: string) => ({ path: { id } });
  return {
    get: (bearer: string, headers?: RequestHeaders) =>
      responseOf(client.GET('/v1/me', { headers: withAuthorization(bearer, headers) })),
    update: (bearer: string, body: Schemas['UpdateMe'], headers?: RequestHeaders) =>
      responseOf(client.PATCH('/v1/me', { body, headers: withAuthorization(bearer, headers) })),
    createToken: (bearer: string, body: CreateApiToken, headers?: RequestHeaders) =>
      responseOf(
        client.POST('/v1/me/tokens', {
          body: body as Schemas['CreateApiToken'],
          headers: withAuthorization(bearer, headers),
        }),
      ),
    /** `query` as it goes after the path, e.g. `?limit=2`. */
    listTokens: (bearer: string, query = '') =>
      responseOf(client.GET('/v1/me/tokens', { headers: withAuthorization(bearer), ...rawQuery(query) })),
    getToken: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.GET('/v1/me/tokens/{id}', { params: token(id), headers: withAuthorization(bearer, headers) }),
      ),
    revokeToken: (bearer: string, id: string, headers?: RequestHeaders) =>
      responseOf(
        client.DELETE('/v1/me/tokens/{id}', {
          params: token(id),
          headers: withAuthorization(bearer, headers),
        }),
      ),
    raw: { tokens: resourceCalls(app, TOKENS) },
  };
}
