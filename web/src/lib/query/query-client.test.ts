import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { shouldRetry } from './query-client.ts';

function apiError(status: number, code: string): ApiError {
  return new ApiError({ status, code, detail: 'x', requestId: null, errors: [] });
}

describe('shouldRetry', () => {
  it('retries transient failures a few times', () => {
    const unavailable = apiError(503, 'unavailable');

    expect(shouldRetry(0, apiError(0, 'network_error'))).toBe(true);
    expect(shouldRetry(0, apiError(429, 'rate_limited'))).toBe(true);
    expect(shouldRetry(2, unavailable)).toBe(true);
    expect(shouldRetry(3, unavailable)).toBe(false);
  });

  it('never retries what the caller must fix, a bug, or an unknown error', () => {
    expect(shouldRetry(0, apiError(404, 'not_found'))).toBe(false);
    expect(shouldRetry(0, apiError(422, 'validation_failed'))).toBe(false);
    expect(shouldRetry(0, apiError(500, 'internal'))).toBe(false);
    expect(shouldRetry(0, apiError(0, 'invalid_response'))).toBe(false);
    expect(shouldRetry(0, new Error('a bug'))).toBe(false);
  });
});
