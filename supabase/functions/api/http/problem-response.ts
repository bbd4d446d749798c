/** Writes an AppError as RFC 9457 `application/problem+json`: the only shape an error answer has. */
import type { Context } from 'hono';
import type { Problem } from '../../_shared/api-types.ts';
import type { AppError } from '../../_shared/errors.ts';
import type { AppEnv } from '../app-env.ts';

export const PROBLEM_TYPE_BASE = 'https://tasklane.dev/problems/';

export function problemResponse(c: Context<AppEnv>, error: AppError): Response {
  const problem: Problem = {
    type: PROBLEM_TYPE_BASE + error.code,
    title: error.title,
    status: error.status,
    code: error.code,
    detail: error.detail,
    request_id: c.var.requestId,
    ...(error.errors && { errors: [...error.errors] }),
    ...error.extensions,
  };
  return c.body(JSON.stringify(problem), error.status, {
    ...error.headers,
    'Content-Type': 'application/problem+json',
  });
}
