import { validationFailed } from './errors.ts';
import type { UserRow } from './users.queries.ts';

const UNIT_MILLISECONDS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_DURATION = /^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

export function isBanned(user: UserRow, now = new Date()): boolean {
  return user.banned_until !== null && user.banned_until > now;
}

/**
 * The admin API's `ban_duration`, a Go duration such as `"24h"` or `"1h30m"`: the end of the ban in
 * milliseconds from now, or null for `"none"` or a zero duration (which lift a ban). Undefined or `""`
 * leaves bans alone.
 */
export function parseBanDuration(text: string | undefined): number | null | undefined {
  if (text === undefined || text === '') return undefined;
  if (text === 'none') return null;
  if (text === '0' || text === '+0' || text === '-0') return null;
  if (!GO_DURATION.test(text)) {
    throw validationFailed(`invalid format for ban duration: time: invalid duration "${text}"`);
  }
  const sign = text.startsWith('-') ? -1 : 1;
  let total = 0;
  for (const [, amount = '0', unit = 'ms'] of text.matchAll(GO_DURATION_PART)) {
    total += Number(amount) * (UNIT_MILLISECONDS[unit] ?? 0);
  }
  // As GoTrue's User.Ban, a zero duration lifts the ban.
  return total === 0 ? null : sign * total;
}
