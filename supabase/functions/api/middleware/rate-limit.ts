/**
 * The rate limits (docs/product.md#limits, docs/decisions/0006), as two middlewares around authentication:
 *
 * - `limitByIp`, before it: a request authentication will not verify (signed-out-requests.ts: a public
 *   route, an optional-credential one sent without credentials, or no route at all) is counted against its IP address before any work; a request it does verify is counted against
 *   its IP address only if it is refused there (401), and then answered `429` once the address is over
 *   its limit. So the per-IP limit never stands in the way of a valid credential (many people share an
 *   address), but slows down requests without one and callers whose credentials keep failing.
 * - `limitByPrincipal`, after it: a verified request is counted against its user or API token.
 *
 * Every answer either counted gets `RateLimit-Policy` and `RateLimit`; one over the limit is
 * `429 rate_limited` with `Retry-After`. A `304 Not Modified` is handed back: it is free
 * (docs/product.md#api-conventions); its answer does not wait for that (docs/decisions/0016). When the
 * counters cannot be reached, the request passes uncounted: a database outage fails requests anyway, and
 * bookkeeping should not fail the ones that need no database.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { AppError } from '../../_shared/errors.ts';
import type { Logger } from '../../_shared/logger.ts';
import { principalKeyOf } from '../../_shared/principal.ts';
import type { AppEnv, RateLimits } from '../app-env.ts';
import { clientAddressOf, ipBucketOf } from '../http/client-address.ts';
import { problemResponse } from '../http/problem-response.ts';
import { isOverLimit, rateLimitHeaders, type RateLimitPolicy } from '../http/rate-limit-headers.ts';
import { countedFrom, type CountedRequest, type RateLimiter } from '../rate-limits/rate-limiter.ts';
import type { SignedOutRequests } from './signed-out-requests.ts';

/** The window every limit counts in; authentication counts a verified caller's request in it too. */
export const WINDOW_SECONDS = 60;

export interface RateLimitOptions {
  limiter: RateLimiter;
  limits: RateLimits;
  /** The address of the connection, when the runtime tells it; used when X-Forwarded-For has none. */
  connectionAddress: (c: Context<AppEnv>) => string | undefined;
  /** Proxies in front of the API that append to X-Forwarded-For. */
  trustedProxyHops: number;
  logger: Logger;
}

export const limitByIp = (options: RateLimitOptions, isSignedOut: SignedOutRequests) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const policy = policyOf('ip', options.limits);
    const bucket = ipBucketOf(clientAddress(c, options));
    if (isSignedOut(c)) {
      const counted = await countOrPass(options, bucket, policy, c);
      refuseIfOver(counted);
      await next();
      return finish(c, options, counted);
    }
    await next();
    if (c.var.principal !== undefined || c.res.status !== 401) return;
    const counted = await countOrPass(options, bucket, policy, c);
    if (!counted || !isOverLimit(counted)) return finish(c, options, counted);
    // The refusal becomes a 429 and stops being a challenge to authenticate.
    c.header('WWW-Authenticate', undefined);
    c.res = problemResponse(c, rateLimited(counted));
  });

export const limitByPrincipal = (options: RateLimitOptions) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.var.principal;
    if (!principal) return next();
    const bucket = principalKeyOf(principal);
    const policy = policyOf('user', options.limits);
    const ahead = c.var.principalCountAhead;
    if (ahead) {
      // Counted in the round trip of the work, which changes nothing: judged once the work is done.
      await next();
      const count = await ahead;
      // None: the credential was refused, and authentication answers that.
      if (!count) return;
      const counted = countedFrom(bucket, policy, count);
      refuseIfOver(counted);
      return finish(c, options, counted);
    }
    // The count authentication made along with checking the credential, if it made one.
    const already = c.var.principalCount;
    const counted = already
      ? countedFrom(bucket, policy, already)
      : await countOrPass(options, bucket, policy, c);
    refuseIfOver(counted);
    await next();
    return finish(c, options, counted);
  });

function policyOf(name: RateLimitPolicy['name'], limits: RateLimits): RateLimitPolicy {
  return { name, quota: limits[name], windowSeconds: WINDOW_SECONDS };
}

/**
 * The caller's address, logged at debug level with what it was taken from, so that the first deploy can
 * compare it with the caller's real address and set TASKLANE_TRUSTED_PROXY_HOPS (docs/deploy.md).
 */
function clientAddress(c: Context<AppEnv>, options: RateLimitOptions): string | undefined {
  const forwardedFor = c.req.header('x-forwarded-for');
  const connectionAddress = options.connectionAddress(c);
  const address = clientAddressOf(forwardedFor, connectionAddress, options.trustedProxyHops);
  options.logger.debug('client address', {
    x_forwarded_for: forwardedFor,
    x_real_ip: c.req.header('x-real-ip'),
    connection_address: connectionAddress,
    trusted_proxy_hops: options.trustedProxyHops,
    client_address: address,
  });
  return address;
}

async function countOrPass(
  options: RateLimitOptions,
  bucket: string,
  policy: RateLimitPolicy,
  c: Context<AppEnv>,
): Promise<CountedRequest | undefined> {
  try {
    return await options.limiter.count(bucket, policy);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'unavailable')) throw error;
    options.logger.warn('request not counted for rate limits: database unavailable', {
      request_id: c.var.requestId,
    });
    return undefined;
  }
}

function refuseIfOver(counted: CountedRequest | undefined): void {
  if (counted && isOverLimit(counted)) throw rateLimited(counted);
}

function rateLimited(counted: CountedRequest): AppError {
  const who = counted.policy.name === 'ip' ? 'from this IP address' : 'with this credential';
  return new AppError(
    'rate_limited',
    `More than ${counted.policy.quota} requests ${who} in ${counted.policy.windowSeconds} seconds. Try again in ${counted.resetsInSeconds} seconds.`,
    { headers: rateLimitHeaders(counted) },
  );
}

/** Hands a 304 back (not waited for), then puts the limit's headers on the answer. */
function finish(c: Context<AppEnv>, options: RateLimitOptions, counted: CountedRequest | undefined): void {
  if (!counted) return;
  const state = c.res.status === 304 ? options.limiter.handBack(counted) : counted;
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) c.header(name, value);
}
