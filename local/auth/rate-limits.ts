import { AuthError } from './errors.ts';

/** Requests per IP per window, one figure per GoTrue limiter family (config.toml `[auth.rate_limit]`). */
export interface AuthRateLimits {
  /** Every `/token` grant, per 5 minutes. */
  tokenRefresh: number;
  /** `/signup`, `/recover`, `/resend`, `/otp`, `/magiclink` and `PUT /user`, each per 5 minutes. */
  signInSignUps: number;
  /** `/verify`, per 5 minutes. */
  tokenVerifications: number;
  /** `/factors/{id}/challenge` and `/factors/{id}/verify`, each per minute. */
  mfaChallengeAndVerify: number;
}

/** The Supabase CLI's defaults. */
export const CLI_RATE_LIMITS: AuthRateLimits = {
  tokenRefresh: 150,
  signInSignUps: 30,
  tokenVerifications: 30,
  mfaChallengeAndVerify: 15,
};

/** GoTrue gives every limiter a burst of 30, whatever its rate. */
const BURST = 30;
const FIVE_MINUTES = 300;
const ONE_MINUTE = 60;
/** Buckets refilled to the brim are forgotten once there are this many. */
const SWEEP_THRESHOLD = 10_000;

interface Limiter {
  family: keyof AuthRateLimits;
  windowSeconds: number;
}

// As in GoTrue's router, each endpoint has a bucket of its own, even where endpoints share a figure.
const LIMITERS: { method: string; path: RegExp; name: string; limiter: Limiter }[] = [
  route('POST', /^\/token$/, 'token', 'tokenRefresh', FIVE_MINUTES),
  route('POST', /^\/signup$/, 'signup', 'signInSignUps', FIVE_MINUTES),
  route('POST', /^\/recover$/, 'recover', 'signInSignUps', FIVE_MINUTES),
  route('POST', /^\/resend$/, 'resend', 'signInSignUps', FIVE_MINUTES),
  route('POST', /^\/otp$/, 'otp', 'signInSignUps', FIVE_MINUTES),
  route('POST', /^\/magiclink$/, 'magiclink', 'signInSignUps', FIVE_MINUTES),
  route('PUT', /^\/user$/, 'user', 'signInSignUps', FIVE_MINUTES),
  route('GET', /^\/verify$/, 'verify', 'tokenVerifications', FIVE_MINUTES),
  route('POST', /^\/verify$/, 'verify', 'tokenVerifications', FIVE_MINUTES),
  route('POST', /^\/factors\/[^/]+\/challenge$/, 'factor_challenge', 'mfaChallengeAndVerify', ONE_MINUTE),
  route('POST', /^\/factors\/[^/]+\/verify$/, 'factor_verify', 'mfaChallengeAndVerify', ONE_MINUTE),
];

function route(
  method: string,
  path: RegExp,
  name: string,
  family: keyof AuthRateLimits,
  windowSeconds: number,
) {
  return { method, path, name, limiter: { family, windowSeconds } };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateLimiter {
  /** Takes one request from the caller's bucket for this endpoint; throws 429 when it is empty. */
  admit(method: string, pathname: string, clientAddress: string): void;
}

/** GoTrue's per-IP token buckets (tollbooth): full at first, refilled at `limit / window`, capped at the burst. */
export function createRateLimiter(limits: AuthRateLimits, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, Bucket>();
  return {
    admit(method, pathname, clientAddress) {
      const match = LIMITERS.find((entry) => entry.method === method && entry.path.test(pathname));
      if (!match) return;
      const refillPerMs = limits[match.limiter.family] / (match.limiter.windowSeconds * 1000);
      const key = `${match.name} ${clientAddress}`;
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: BURST, updatedAt: time };
      bucket.tokens = Math.min(BURST, bucket.tokens + (time - bucket.updatedAt) * refillPerMs);
      bucket.updatedAt = time;
      if (bucket.tokens < 1) {
        buckets.set(key, bucket);
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
      }
      bucket.tokens -= 1;
      buckets.set(key, bucket);
      if (buckets.size > SWEEP_THRESHOLD) sweep(buckets, time, limits);
    },
  };
}

function sweep(buckets: Map<string, Bucket>, time: number, limits: AuthRateLimits): void {
  const slowestRefillPerMs = Math.min(...Object.values(limits)) / (FIVE_MINUTES * 1000);
  for (const [key, bucket] of buckets) {
    if (bucket.tokens + (time - bucket.updatedAt) * slowestRefillPerMs >= BURST) buckets.delete(key);
  }
}
