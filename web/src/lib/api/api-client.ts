import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '@api-spec/schema.d.ts';
import { env } from '../../config/env.ts';
import { apiErrorFromFailure, apiErrorFromResponse } from './api-error.ts';
import { fetchOrEarly } from './early-responses.ts';

type AccessTokenProvider = () => Promise<string | null> | string | null;

let accessTokenProvider: AccessTokenProvider = () => null;

/** The seam for sign-in: the auth module hands over a way to read the current session's access token. */
export function setAccessTokenProvider(provider: AccessTokenProvider): void {
  accessTokenProvider = provider;
}

const authorization: Middleware = {
  async onRequest({ request }) {
    const token = await accessTokenProvider();
    if (token && !request.headers.has('Authorization')) {
      request.headers.set('Authorization', `Bearer ${token}`);
    }
    return request;
  },
};

/** Where this app's API answers: the base URL of every path in openapi.yaml. */
export const apiBaseUrl = `${env.supabaseUrl}/functions/v1/api`;

/** The typed client for every API call. Pass its promise to `unwrap`. */
export const api = createClient<paths>({ baseUrl: apiBaseUrl, fetch: fetchOrEarly });
api.use(authorization);

/**
 * The same client without credentials, for the public operations a link from an e-mail calls (the
 * signed token is the authority, and the session, if any, is not asked for).
 */
export const publicApi = createClient<paths>({ baseUrl: apiBaseUrl, fetch: fetchOrEarly });

/** The shape of what openapi-fetch resolves with, for any operation. */
interface ApiResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** Returns the answer's data, or throws an ApiError; a cancelled request rethrows its AbortError as is. */
export async function unwrap<Data>(pending: Promise<ApiResult<Data>>): Promise<Data> {
  let result: ApiResult<Data>;
  try {
    result = await pending;
  } catch (cause) {
    if (isAbort(cause)) throw cause;
    throw apiErrorFromFailure(cause);
  }
  if (!result.response.ok) throw apiErrorFromResponse(result.error, result.response);
  // openapi-fetch leaves `data` undefined only for answers without a body (204), whose type says so.
  return result.data as Data;
}

function isAbort(cause: unknown): boolean {
  return cause instanceof DOMException && cause.name === 'AbortError';
}
