/** The redirects of `GET /verify`, written exactly as GoTrue writes them (auth-js parses them). */
import type { AuthError } from './errors.ts';
import type { SessionBody } from './sessions.ts';

// GoTrue's oauthErrorMap: the OAuth `error` a redirect carries for an HTTP status.
const OAUTH_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** The implicit flow's redirect: the session as a form-encoded hash with sorted keys, as GoTrue writes it. */
export function sessionRedirect(redirectTo: string, session: SessionBody, type: string): string {
  const hash = sorted({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    sb: '',
    token_type: session.token_type,
    type,
  });
  return `${redirectTo}#${hash}`;
}

/** The error in the hash (and, for PKCE, in the query too), replacing any hash `redirect_to` had. */
export function errorRedirect(redirectTo: string, error: AuthError, inQuery: boolean): string {
  const oauthError = OAUTH_ERRORS[error.status];
  const details = {
    ...(oauthError ? { error: oauthError } : {}),
    error_code: error.code,
    error_description: error.message,
  };
  const target = inQuery ? withQuery(redirectTo, details) : redirectTo;
  return `${withoutHash(target)}#${sorted({ ...details, sb: '' })}`;
}

/** Sets query parameters the way Go's `url.Values.Encode` writes them: sorted by key. */
export function withQuery(address: string, values: Record<string, string>): string {
  const hashAt = address.indexOf('#');
  const [beforeHash, hash] = hashAt < 0 ? [address, ''] : [address.slice(0, hashAt), address.slice(hashAt)];
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : beforeHash.slice(queryAt + 1));
  for (const [key, value] of Object.entries(values)) query.set(key, value);
  query.sort();
  return `${base}?${query.toString()}${hash}`;
}

function withoutHash(address: string): string {
  const hashAt = address.indexOf('#');
  return hashAt < 0 ? address : address.slice(0, hashAt);
}

function sorted(values: Record<string, string>): string {
  const params = new URLSearchParams(values);
  params.sort();
  return params.toString();
}

/** GoTrue's `prepRedirectURL`: a message in the hash (and, for PKCE, in the query too). */
export function messageRedirect(redirectTo: string, message: string, inQuery: boolean): string {
  const target = inQuery ? withQuery(redirectTo, { message }) : redirectTo;
  return `${withoutHash(target)}#${sorted({ message, sb: '' })}`;
}
