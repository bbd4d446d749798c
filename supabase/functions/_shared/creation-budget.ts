/**
 * The hourly budget for sensitive creations (docs/product.md#limits: API tokens and invitations, each per
 * person): once a person has made SENSITIVE_CREATIONS_PER_HOUR of a kind within the last hour, the next one
 * is `429 rate_limited` with Retry-After until the oldest leaves the window. A queries module counts the
 * creations (under a lock per person, so that concurrent ones cannot both pass); this file judges.
 */
import { AppError } from './errors.ts';
import { SENSITIVE_CREATIONS_PER_HOUR } from './limits.ts';

export const CREATION_WINDOW_SECONDS = 60 * 60;

/** A person's creations of one kind within the last CREATION_WINDOW_SECONDS. */
export interface RecentCreations extends Record<string, unknown> {
  count: number;
  /** Seconds until the oldest creation in the window leaves it; null when there is none. */
  retry_after_seconds: number | null;
}

/** Throws `429 rate_limited` when `recent` has used up the budget; `kind` names what was created. */
export function requireCreationBudget(recent: RecentCreations, kind: string): void {
  if (recent.count < SENSITIVE_CREATIONS_PER_HOUR) return;
  const retryAfter = Math.max(1, recent.retry_after_seconds ?? CREATION_WINDOW_SECONDS);
  throw new AppError(
    'rate_limited',
    `You have created ${SENSITIVE_CREATIONS_PER_HOUR} ${kind} in the last hour, the limit (sensitive_creations_per_hour). Try again in ${retryAfter} seconds.`,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}
