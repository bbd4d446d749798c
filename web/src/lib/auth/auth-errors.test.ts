import {
  AuthApiError,
  AuthImplicitGrantRedirectError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
  AuthWeakPasswordError,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { describeAuthError, messageFor } from './auth-errors.ts';

function apiError(status: number, code: string, message = 'server text') {
  return new AuthApiError(message, status, code);
}

describe('describeAuthError', () => {
  it('says a sign-in failed without telling whether the e-mail or the password was wrong', () => {
    expect(describeAuthError(apiError(400, 'invalid_credentials', 'Invalid login credentials'))).toEqual({
      message: 'That e-mail and password do not match an account.',
      field: null,
    });
  });

  it('puts each error next to the field it concerns', () => {
    expect(describeAuthError(apiError(422, 'user_already_exists'))).toMatchObject({ field: 'email' });
    expect(describeAuthError(apiError(400, 'email_not_confirmed'))).toMatchObject({ field: 'email' });
    expect(describeAuthError(apiError(422, 'same_password'))).toMatchObject({
      field: 'password',
      message: 'The new password must be different from your current one.',
    });
    expect(describeAuthError(apiError(422, 'mfa_verification_failed'))).toEqual({
      message: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
      field: 'code',
    });
  });

  it('explains rate limits, expired links and ended sessions in words', () => {
    expect(describeAuthError(apiError(429, 'over_request_rate_limit')).message).toBe(
      'Too many attempts in a short time. Wait a minute, then try again.',
    );
    expect(describeAuthError(apiError(403, 'otp_expired')).message).toMatch(/invalid or has expired/);
    expect(describeAuthError(apiError(403, 'session_not_found')).message).toBe(
      'Your session has ended. Sign in again.',
    );
    expect(describeAuthError(new AuthSessionMissingError()).message).toBe(
      'Your session has ended. Sign in again.',
    );
  });

  it('reads a weak password, naming a breached one as such', () => {
    expect(describeAuthError(new AuthWeakPasswordError('weak', 422, ['length']))).toMatchObject({
      field: 'password',
      message: expect.stringMatching(/too easy to guess/),
    });
    expect(describeAuthError(new AuthWeakPasswordError('weak', 422, ['pwned'])).message).toMatch(
      /appeared in a data breach/,
    );
  });

  it('reads the error code of a link that came back with an error', () => {
    const expired = new AuthImplicitGrantRedirectError('Email link is invalid or has expired', {
      error: 'access_denied',
      code: 'otp_expired',
    });

    expect(describeAuthError(expired)).toEqual({
      message: 'This link is invalid or has expired. Links work once and only for a while.',
      field: null,
    });
  });

  it('tells a network failure from a server failure, and never shows raw server text', () => {
    expect(describeAuthError(new AuthRetryableFetchError('Failed to fetch', 0)).message).toMatch(
      /Could not reach the sign-in service/,
    );
    const unknown = describeAuthError(apiError(500, 'unexpected_failure', 'pq: relation does not exist'));
    expect(unknown).toEqual({
      message: 'Something went wrong on our side. Try again in a moment.',
      field: null,
    });
    expect(describeAuthError(new TypeError('x is undefined')).message).toBe(unknown.message);
  });
});

describe('messageFor', () => {
  it('gives the sentence only to the field it concerns', () => {
    const wrongCode = describeAuthError(apiError(422, 'mfa_verification_failed'));

    expect(messageFor(wrongCode, 'code')).toBe(wrongCode.message);
    expect(messageFor(wrongCode, 'password')).toBeUndefined();
    expect(messageFor(null, 'code')).toBeUndefined();
  });
});
