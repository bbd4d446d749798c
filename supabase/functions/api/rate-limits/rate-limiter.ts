/**
 * The rate limits (SPEC §9), counted in Postgres so that every instance of the function shares them.
 * Each request costs one statement on the service connection; a `304 Not Modified` is handed back.
 */
import type { Database } from '../../_shared/db.ts';
import type { RateLimitPolicy, RateLimitState } from '../http/rate-limit-headers.ts';
import { countRequest, uncountRequest, type RequestCountRow } from './rate-limits.queries.ts';

/** A request counted against a bucket, with what it takes to hand it back. */
export interface CountedRequest extends RateLimitState {
  bucket: string;
  windowStartedAt: Date;
}

export interface RateLimiter {
  count(bucket: string, policy: RateLimitPolicy): Promise<CountedRequest>;
  /** Hands a counted request back; the state after, which is unchanged once its window has passed. */
  uncount(counted: CountedRequest): Promise<CountedRequest>;
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

export function postgresRateLimiter(db: Database): RateLimiter {
  return {
    async count(bucket, policy) {
      return countedFrom(
        bucket,
        policy,
        await countRequest(db.serviceStatements, bucket, policy.windowSeconds),
      );
    },
    async uncount(counted) {
      const hits = await uncountRequest(db.serviceStatements, counted.bucket, counted.windowStartedAt);
      return hits === undefined ? counted : { ...counted, hits };
    },
  };
}
