/**
 * How tests outside the process call the API over real HTTP, as an integrator with curl would: a bearer
 * credential, a JSON body, and headers; every error is application/problem+json with a stable code.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';

export interface HttpProblem {
  code: string;
  detail: string;
  errors?: { path: string; code: string }[];
}

export interface HttpApi {
  /** The address of `path` under the API's /v1 base. */
  url(path: string): string;
  /** Calls `path` (under /v1, or an absolute URL such as a Location or Link) with `bearer`. */
  call(
    bearer: string,
    path: string,
    method?: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/** The API whose /v1 base is `base`, e.g. `http://127.0.0.1:54321/functions/v1/api/v1`. */
export function httpApi(base: string): HttpApi {
  const url = (path: string) => `${base}${path}`;
  return {
    url,
    call: (bearer, path, method = 'GET', body, headers = {}) =>
      fetch(path.startsWith('http') ? path : url(path), {
        method,
        headers: {
          Authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

export interface FirstSteps {
  /** A write API token, made from the session. */
  token: string;
  slug: string;
  /** The answer to the workspace's creation. */
  created: Response;
}

/**
 * An integrator's first steps (docs/api-tour.md): a write API token made from a signed-in `session`, then
 * with the token alone a workspace called `name`, its slug `name` in lower case with a random suffix.
 * `context` names what to print when a step fails (a server's output).
 */
export async function takeFirstSteps(
  { call }: HttpApi,
  session: string,
  name: string,
  context = () => '',
): Promise<FirstSteps> {
  const made = await call(session, '/me/tokens', 'POST', { name, scope: 'write' });
  expect(made.status, context()).toBe(201);
  const { token } = (await made.json()) as { token: string };
  const slug = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  const created = await call(
    token,
    '/workspaces',
    'POST',
    { name, slug },
    { 'Idempotency-Key': randomUUID() },
  );
  expect(created.status, context()).toBe(201);
  return { token, slug, created };
}

export async function expectHttpProblem(
  response: Response,
  status: number,
  code: string,
): Promise<HttpProblem> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await response.json()) as HttpProblem;
  expect(problem.code).toBe(code);
  return problem;
}
