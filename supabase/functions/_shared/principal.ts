/**
 * Who is calling. The authenticate middleware builds a Principal from a Supabase access token (and, with
 * the API tokens feature, from an API token); the database helper turns it into the JWT claims Postgres
 * policies read.
 */
import type { ApiTokenScope } from './api-types.ts';

export interface Principal {
  user_id: string;
  email: string | null;
  /** Authenticator assurance level of the session: `aal2` after a second factor. */
  aal: 'aal1' | 'aal2';
  /** The Supabase Auth session, or null for API tokens. */
  session_id: string | null;
  /** Set when the caller authenticated with a Tasklane API token (`tl_pat_…`) instead of a session. */
  api_token?: ApiTokenCredential;
}

export interface ApiTokenCredential {
  id: string;
  /** `read` tokens may call safe methods only. */
  scope: ApiTokenScope;
}

/** The claims as PostgREST would set them, so `auth.uid()` and `auth.jwt()` work in policies, plus the API token. */
export function jwtClaimsFor(principal: Principal): Record<string, string | null> {
  return {
    sub: principal.user_id,
    role: 'authenticated',
    email: principal.email,
    aal: principal.aal,
    session_id: principal.session_id,
    // Ours, not GoTrue's: the event log records which token acted (private.append_event).
    api_token_id: principal.api_token?.id ?? null,
  };
}

/**
 * The caller as one stable string, for what is kept per principal (rate limits, idempotency keys): the
 * API token when there is one, since each token is its own integration, else the user.
 */
export function principalKeyOf(principal: Principal): string {
  return principal.api_token ? `api_token:${principal.api_token.id}` : `user:${principal.user_id}`;
}
