/**
 * Authentication for every request but the signed-out ones (signed-out-requests.ts: the public routes, and
 * the optional-credential ones sent without any), which are named in lists: a new route is secured
 * without anyone having to remember it. The credential comes from `Authorization: Bearer <token>`; once
 * verified, the caller is on `c.var.principal`. A request no route takes passes through to its 404.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { LRUCache } from 'lru-cache';
import type {
  StatementBesideCheck,
  SendBesideCheck,
  CredentialVerifier,
} from '../../_shared/auth/credential-verifier.ts';
import { invalidCredentials, missingCredentials } from '../../_shared/auth/unauthenticated.ts';
import type { AppEnv } from '../app-env.ts';
import type { SignedOutRequests } from './signed-out-requests.ts';

/** A route as `METHOD /full/path`, in Hono's `:param` syntax, e.g. `GET /api/v1/health`. */
export type RouteName = string;

// RFC 6750 §2.1: the scheme is case-insensitive, the token is token68.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const BEARER_SCHEME = /^Bearer(?: |$)/i;

/**
 * @param countWindowSeconds when given, the request is counted against the caller's rate limit in the
 *   same round trip as the credential's check (`c.var.principalCount`, read by limitByPrincipal).
 * @param countsSettled what the count waits for first: the `304`s this instance is still handing back.
 * @param statementsBesideCheck the service statements to send in the same round trip for this request (an
 *   Idempotency-Key's claim, an export's budget), each undone when the request is refused before its
 *   route takes it over.
 */
export const authenticate = (
  credentials: CredentialVerifier,
  isSignedOut: SignedOutRequests,
  countWindowSeconds?: number,
  countsSettled: () => Promise<void> = () => Promise.resolve(),
  statementsBesideCheck: (c: Context<AppEnv>) => readonly StatementBesideCheck[] = () => [],
) => {
  const ahead = checksAhead();
  return createMiddleware<AppEnv>(async (c, next) => {
    if (isSignedOut(c)) return next();
    const token = bearerToken(c.req.header('authorization'));
    const verifyAndCount = credentials.verifyAndCount;
    if (countWindowSeconds === undefined || !verifyAndCount) {
      c.set('principal', await credentials.verify(token));
      return next();
    }
    await countsSettled();
    const alongside = statementsBesideCheck(c);
    const checkFirst = async () => {
      const statement: SendBesideCheck | undefined =
        alongside.length === 0
          ? undefined
          : (sql, holder) => Promise.all(alongside.map((each) => each.statement(sql, holder)));
      try {
        const { principal, count } = await verifyAndCount(token, countWindowSeconds, statement);
        c.set('principal', principal);
        if (count) c.set('principalCount', count);
        await next();
      } finally {
        await Promise.all(alongside.map((each) => each.undoUnlessTakenOver()));
      }
    };
    if (alongside.length > 0 || !credentials.verifyAhead || !ahead.admits(c, token)) return checkFirst();
    return credentials.verifyAhead(token, countWindowSeconds, checkFirst, async (principal, verdict) => {
      c.set('principal', principal);
      c.set(
        'principalCountAhead',
        verdict.then(
          ({ count }) => count,
          () => undefined,
        ),
      );
      await next();
      try {
        await verdict;
      } catch (error) {
        c.set('principal', undefined);
        throw error;
      } finally {
        ahead.learn(c, token);
      }
    });
  });
};

/** How long a credential refused after its work ran has every request checked before its work. */
const CHECKED_FIRST_MS = 60_000;
const REMEMBERED_CREDENTIALS = 10_000;

/**
 * Which requests have their credential checked in the round trip of their work instead of before it
 * (docs/decisions/0030): those that change nothing (GET, HEAD), but not a credential refused that way
 * lately (401, 429): a caller who keeps being refused costs the database no more than before.
 */
function checksAhead() {
  const refused = new LRUCache<string, true>({ max: REMEMBERED_CREDENTIALS, ttl: CHECKED_FIRST_MS });
  return {
    admits: (c: Context<AppEnv>, token: string): boolean =>
      (c.req.method === 'GET' || c.req.method === 'HEAD') && !refused.has(token),
    learn(c: Context<AppEnv>, token: string): void {
      if (c.var.principal === undefined || c.res.status === 429) refused.set(token, true);
    },
  };
}

/** The route that takes this request, by name; undefined when none does. */
export function routeOf(c: Context<AppEnv>): RouteName | undefined {
  const route = matchedRoutes(c).find((candidate) => candidate.method !== 'ALL');
  return route && `${route.method} ${route.path}`;
}

function bearerToken(header: string | undefined): string {
  const value = header?.trim() ?? '';
  if (value === '') {
    throw missingCredentials('Sign in first: send `Authorization: Bearer <access token>`.');
  }
  // The header's value is never echoed: whatever scheme it names, it carries a secret.
  if (!BEARER_SCHEME.test(value)) {
    throw missingCredentials('The Authorization header must use the Bearer scheme: `Bearer <access token>`.');
  }
  const token = BEARER.exec(value)?.[1];
  if (token === undefined) {
    throw invalidCredentials('The Authorization header holds no well-formed bearer token.');
  }
  return token;
}
