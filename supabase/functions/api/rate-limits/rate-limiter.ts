/**
 * The rate limits (docs/product.md#limits), counted in Postgres so that every instance of the function shares
 * them. Each request costs one statement on the service connection; a `304 Not Modified` is handed back, in a
 * round trip its answer does not wait for (docs/decisions/0016).
 */
import { runAfterResponse } from '../../_shared/after-response.ts';
import type { Database } from '../../_shared/db.ts';
import { describeError } from '../../_shared/describe-error.ts';
import type { Logger } from '../../_shared/logger.ts';
import type { RateLimitPolicy, RateLimitState } from '../http/rate-limit-headers.ts';
import { countRequest, uncountRequest, type RequestCountRow } from './rate-limits.queries.ts';

/** A request counted against a bucket, with what it takes to hand it back. */
export interface CountedRequest extends RateLimitState {
  bucket: string;
  windowStartedAt: Date;
}

export interface RateLimiter {
  count(bucket: string, policy: RateLimitPolicy): Promise<CountedRequest>;
  /**
   * Hands a counted request back without waiting for it; the state after, as this request leaves it.
   * A count of this instance's made later waits for it first (`handedBack`), so that a caller's next
   * request never finds its `304` still counted.
   */
  handBack(counted: CountedRequest): CountedRequest;
  /** Resolves once every hand-back started so far is done. */
  handedBack(): Promise<void>;
}

/** The counted request `row` tells of: as the limiter counts it, or as authentication did. */
export function countedFrom(bucket: string, policy: RateLimitPolicy, row: RequestCountRow): CountedRequest {
  return {
    bucket,
    policy,
    hits: row.hits,
    windowStartedAt: row.window_started_at,
    resetsInSeconds: row.resets_in_seconds,
  };
}

export function postgresRateLimiter(db: Database, logger: Logger): RateLimiter {
  const inFlight = new Set<Promise<void>>();
  const handedBack = async () => {
    if (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  return {
    async count(bucket, policy) {
      await handedBack();
      return countedFrom(
        bucket,
        policy,
        await db.serviceStatements((sql) => countRequest(sql, bucket, policy.windowSeconds)),
      );
    },
    handBack(counted) {
      // On a connection of its own (serviceStatements), given back to the pool once the statement is done.
      const done = runAfterResponse(
        () => db.serviceStatements((sql) => uncountRequest(sql, counted.bucket, counted.windowStartedAt)),
        (error) => logger.warn('a 304 could not be handed back: it stays counted', describeError(error)),
      ).finally(() => inFlight.delete(done));
      inFlight.add(done);
      return { ...counted, hits: Math.max(counted.hits - 1, 0) };
    },
    handedBack,
  };
}
