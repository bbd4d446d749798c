/**
 * The untyped way API tests call the app: in-process through `app.request()`, and every answer is
 * checked against openapi.yaml before the test sees it. Tests of well-formed calls use the typed client
 * (api-client.ts); this path stays, deliberately, for what the contract's types forbid: fuzzing, the
 * authorization matrix, malformed bodies, headers, queries and credentials, and test-only routes.
 */
import type { Hono } from 'hono';
import { expect } from 'vitest';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import { expectProblemResponse, expectResponseMatchesSpec } from './openapi.ts';
import type { ObservedResponse, Problem } from './openapi.ts';

export type RequestHeaders = Record<string, string>;

export interface ApiResponse extends ObservedResponse {
  /** The parsed JSON body, or undefined when there is none. */
  body: unknown;
}

/** Calls a route the spec documents; fails unless the answer matches the spec. */
export async function callApi(app: Hono<AppEnv>, path: string, init: RequestInit = {}): Promise<ApiResponse> {
  const response = await observe(app, path, init);
  expectResponseMatchesSpec({ method: init.method ?? 'GET', path }, response);
  return response;
}

/**
 * Calls a test-only route (see createApp's `extraRoutes`), which the spec cannot list; an error answer
 * must still be a valid problem.
 */
export async function callTestRoute(
  app: Hono<AppEnv>,
  path: string,
  init: RequestInit = {},
): Promise<ApiResponse> {
  const response = await observe(app, path, init);
  if (response.status >= 400) expectProblemResponse(response);
  return response;
}

/** The body of an error answer, checked against the Problem schema. */
export function problemOf(response: ApiResponse): Problem {
  return expectProblemResponse(response);
}

/** Checks that the answer is the problem `code` with `status`; returns the problem. */
export function expectProblem(response: ApiResponse, status: number, code: string): Problem {
  expect({ status: response.status, code: problemOf(response).code }).toEqual({ status, code });
  return problemOf(response);
}

async function observe(app: Hono<AppEnv>, path: string, init: RequestInit): Promise<ApiResponse> {
  const response = await app.request(path, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: parsedBody(response.headers, text),
  };
}

/** The parsed JSON body, or undefined when there is none. */
export function parsedBody(headers: Headers, text: string): unknown {
  const isJson = /json/.test(headers.get('content-type') ?? '');
  return isJson && text !== '' ? JSON.parse(text) : undefined;
}
