import { describe, expect, test } from 'vitest';
import { RESEND_INTERVAL_SECONDS, secondsToWaitAfter } from './resend-wait.ts';

/** An error as auth-js throws it: an Error with the HTTP status. */
const authError = (status: number, message: string) => Object.assign(new Error(message), { status });

describe('secondsToWaitAfter', () => {
  test('reads the wait from Auth’s 429 message', () => {
    const message = 'For security purposes, you can only request this after 42 seconds.';
    expect(secondsToWaitAfter(authError(429, message))).toBe(42);
  });

  test('falls back to the usual interval when a 429 does not say', () => {
    expect(secondsToWaitAfter(authError(429, 'Email rate limit exceeded'))).toBe(RESEND_INTERVAL_SECONDS);
  });

  test('is null for any other error', () => {
    expect(secondsToWaitAfter(authError(500, 'after 3 seconds'))).toBeNull();
  });
});
