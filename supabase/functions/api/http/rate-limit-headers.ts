/**
 * Rate-limit header fields in the syntax of draft-ietf-httpapi-ratelimit-headers-11 (Structured
 * Fields): `RateLimit-Policy: "ip";q=60;w=60` announces the policy (quota per window of seconds) and
 * `RateLimit: "ip";r=12;t=37` the requests remaining in this window and the seconds until it resets. A
 * refused request also gets `Retry-After`, for clients that know only that.
 */

export interface RateLimitPolicy {
  /** Names the policy in both fields: `user` (per user or API token) or `ip` (per IP address). */
  name: 'user' | 'ip';
  /** Requests allowed per window. */
  quota: number;
  windowSeconds: number;
}

export interface RateLimitState {
  policy: RateLimitPolicy;
  /** Requests counted in the current window, this one included. */
  hits: number;
  resetsInSeconds: number;
}

export function isOverLimit(state: RateLimitState): boolean {
  return state.hits > state.policy.quota;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { name, quota, windowSeconds } = state.policy;
  const remaining = Math.max(0, quota - state.hits);
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${name}";q=${quota};w=${windowSeconds}`,
    RateLimit: `"${name}";r=${remaining};t=${state.resetsInSeconds}`,
  };
  if (isOverLimit(state)) headers['Retry-After'] = String(state.resetsInSeconds);
  return headers;
}
