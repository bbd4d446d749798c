import {
  isAuthError,
  isAuthImplicitGrantRedirectError,
  isAuthRetryableFetchError,
  isAuthSessionMissingError,
  isAuthWeakPasswordError,
} from '@supabase/supabase-js';

/** The form field an auth error is about, so the form can show it next to that field. */
export type AuthErrorField = 'email' | 'password' | 'code';

export interface AuthErrorDescription {
  message: string;
  /** null: about the form as a whole (e.g. wrong e-mail or password, which must not say which). */
  field: AuthErrorField | null;
}

const SESSION_ENDED: AuthErrorDescription = {
  message: 'Your session has ended. Sign in again.',
  field: null,
};

const LINK_EXPIRED: AuthErrorDescription = {
  message: 'This link is invalid or has expired. Links work once and only for a while.',
  field: null,
};

const WEAK_PASSWORD: AuthErrorDescription = {
  message: 'This password is too easy to guess. Choose a longer one with varied characters.',
  field: 'password',
};

/** Supabase Auth's error codes (GoTrue `error_code`), in words people can act on. */
const DESCRIPTIONS: Readonly<Record<string, AuthErrorDescription>> = {
  invalid_credentials: { message: 'That e-mail and password do not match an account.', field: null },
  user_already_exists: {
    message: 'An account with this e-mail already exists. Sign in instead.',
    field: 'email',
  },
  email_exists: { message: 'An account with this e-mail already exists.', field: 'email' },
  email_address_invalid: { message: 'This e-mail address cannot be used. Try another.', field: 'email' },
  weak_password: WEAK_PASSWORD,
  same_password: {
    message: 'The new password must be different from your current one.',
    field: 'password',
  },
  email_not_confirmed: {
    message: 'Confirm your e-mail address first: open the link in the mail we sent you.',
    field: 'email',
  },
  mfa_verification_failed: {
    message: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
    field: 'code',
  },
  mfa_challenge_expired: { message: 'That took too long. Enter a fresh code.', field: 'code' },
  mfa_factor_not_found: {
    message: 'This authenticator is no longer on your account. Reload the page and try again.',
    field: null,
  },
  insufficient_aal: {
    message: 'Confirm it is you with a code from your authenticator app first.',
    field: null,
  },
  over_request_rate_limit: {
    message: 'Too many attempts in a short time. Wait a minute, then try again.',
    field: null,
  },
  over_email_send_rate_limit: {
    message: 'We sent several e-mails already. Wait a few minutes before asking for another.',
    field: null,
  },
  otp_expired: LINK_EXPIRED,
  // A sign-in link asked for an address without an account (the link never signs anyone up).
  otp_disabled: { message: 'No account uses this address. Check it, or sign up.', field: 'email' },
  signup_disabled: { message: 'New accounts cannot be created right now.', field: null },
  user_banned: { message: 'This account is suspended.', field: null },
  session_not_found: SESSION_ENDED,
  session_expired: SESSION_ENDED,
  refresh_token_not_found: SESSION_ENDED,
  refresh_token_already_used: SESSION_ENDED,
  user_not_found: SESSION_ENDED,
};

const UNREACHABLE: AuthErrorDescription = {
  message: 'Could not reach the sign-in service. Check your connection and try again.',
  field: null,
};

const UNEXPECTED: AuthErrorDescription = {
  message: 'Something went wrong on our side. Try again in a moment.',
  field: null,
};

/** What to tell people about an error from Supabase Auth, and which field it concerns. */
export function describeAuthError(error: unknown): AuthErrorDescription {
  if (isAuthWeakPasswordError(error)) return weakPassword(error.reasons);
  if (isAuthImplicitGrantRedirectError(error)) {
    return DESCRIPTIONS[error.details?.code ?? ''] ?? LINK_EXPIRED;
  }
  if (isAuthSessionMissingError(error)) return SESSION_ENDED;
  if (isAuthRetryableFetchError(error)) return UNREACHABLE;
  if (!isAuthError(error)) return UNEXPECTED;
  return (error.code && DESCRIPTIONS[error.code]) || UNEXPECTED;
}

function weakPassword(reasons: readonly string[]): AuthErrorDescription {
  if (reasons.includes('pwned')) {
    return {
      message: 'This password has appeared in a data breach. Choose one you have not used elsewhere.',
      field: 'password',
    };
  }
  return WEAK_PASSWORD;
}

/** The sentence to show next to `field`, when the described error concerns it. */
export function messageFor(failure: AuthErrorDescription | null, field: string): string | undefined {
  return failure?.field === field ? failure.message : undefined;
}
