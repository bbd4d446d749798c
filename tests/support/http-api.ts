/**
 * How tests outside the process call the API over real HTTP, as an integrator with curl would: a bearer
 * credential, a JSON body, and headers; every error is application/problem+json with a stable code.
 */
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
