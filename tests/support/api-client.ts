/**
 * The typed way API tests call the app: openapi-fetch's client on the generated `paths`, so a request
 * body and an answer's body are typed by the contract and a wrong field fails `tsc`. Its `fetch` calls
 * the app in-process (`app.request`), and every answer is checked against openapi.yaml by middleware
 * before the test sees it.
 *
 * Hostile tests (fuzzing, the authorization matrix, malformed bodies, headers and queries) deliberately
 * keep the untyped path, `callApi` in api-request.ts: they must send what these types forbid.
 */
import type { Hono } from 'hono';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../api-spec/schema.d.ts';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { parsedBody, type ApiResponse, type RequestHeaders } from './api-request.ts';
import { API_BASE_PATH, expectResponseMatchesSpec } from './openapi.ts';

export type ApiClient = Client<paths>;

/** An answer as tests read it, its body typed as the operation's success (check the status first). */
export interface TypedResponse<Body> extends ApiResponse {
  body: Body;
}

/** What openapi-fetch resolves with: the success branch carries `data`, the failure branch `error`. */
interface FetchResult {
  response: Response;
}
type SuccessBody<Result> = Result extends { data: infer Data; error?: never } ? Data : never;

/** The text of every answer the middleware checked, for `responseOf` (openapi-fetch consumes the body). */
const texts = new WeakMap<Response, string>();

/** The spec check as openapi-fetch middleware: an answer openapi.yaml does not document throws. */
export const specCheck: Middleware = {
  async onResponse({ request, response }) {
    const text = await response.clone().text();
    const url = new URL(request.url);
    expectResponseMatchesSpec(
      { method: request.method, path: `${url.pathname}${url.search}` },
      { status: response.status, headers: response.headers, text },
    );
    texts.set(response, text);
    return undefined;
  },
};

/** A typed client whose requests go to `fetch`, with the spec check. */
export function createApiClient(fetch: (request: Request) => Promise<Response>): ApiClient {
  const client = createClient<paths>({ baseUrl: `http://localhost${API_BASE_PATH}`, fetch });
  client.use(specCheck);
  return client;
}

/** The typed client on the app under test. */
export function apiClient(app: Hono<AppEnv>): ApiClient {
  return createApiClient(async (request) => app.request(request));
}

/** Awaits a typed call and returns its answer as tests read it (status, headers, text, typed body). */
export async function responseOf<Result extends FetchResult>(
  pending: Promise<Result>,
): Promise<TypedResponse<SuccessBody<Result>>> {
  const { response } = await pending;
  const text = texts.get(response);
  if (text === undefined) throw new Error('responseOf(): the answer did not pass the spec check');
  const body = parsedBody(response.headers, text) as SuccessBody<Result>;
  return { status: response.status, headers: response.headers, text, body };
}

/**
 * A request body as a client may send it: the fields the spec gives a `default` may be left out.
 * openapi-typescript marks them required (its defaultNonNullable), which suits the API's services, who
 * read these types after validation filled the defaults, but not a caller; pass the body on with
 * `as Body`.
 */
export type Sendable<Body, Defaulted extends keyof Body> = Omit<Body, Defaulted> &
  Partial<Pick<Body, Defaulted>>;

/** Request headers with the bearer credential, for the typed client's `headers` option. */
export const bearer = (token: string, headers: RequestHeaders = {}): RequestHeaders => ({
  Authorization: `Bearer ${token}`,
  ...headers,
});

/**
 * A query string as a test writes it (`?limit=2&cursor=…`), passed through unchanged: list tests
 * probe bounds with values the typed query parameters would not admit.
 */
export const rawQuery = (query: string) => ({ querySerializer: () => query.replace(/^\?/, '') });
