/**
 * What a try's result means for its delivery (docs/webhooks.md#retries): a 2xx succeeds; anything else is tried again on
 * the schedule (retry-schedule.ts) until the last try fails it. `429` and `503` with `Retry-After` wait
 * at least that long (a day at most); `410 Gone` fails it at once and switches the webhook off. A body
 * over 256 KiB is never sent, and fails at once: the same bytes would go every time.
 */
import type { OutboundResult } from '../_shared/outbound/checked-request.ts';
import type { AttemptRecord, ClaimedDelivery } from './dispatcher.queries.ts';
import { retryDelayMs } from './retry-schedule.ts';

const RETRY_AFTER_MAX_SECONDS = 24 * 60 * 60;

/** What a try came to: the request's result, or a body too big to send (`bytes` long). */
export type TryResult = OutboundResult | { kind: 'oversized'; bytes: number };

export interface AttemptClock {
  now: Date;
  /** In [0, 1), for the schedule's jitter. */
  random: number;
  responseBytesKept: number;
}

export function attemptOutcome(
  delivery: ClaimedDelivery,
  requestHeaders: Record<string, string>,
  result: TryResult,
  clock: AttemptClock,
): AttemptRecord {
  const answered = result.kind === 'response' ? result : null;
  const base = {
    deliveryId: delivery.delivery_id,
    requestHeaders,
    responseCode: answered?.status ?? null,
    responseBody: answered ? firstBytes(answered.body, clock.responseBytesKept) : null,
    latencyMs: 'latencyMs' in result ? Math.round(result.latencyMs) : null,
    error: errorOf(result),
  };
  const step = delivery.retry_step + 1;
  if (answered && answered.status >= 200 && answered.status < 300) {
    return { ...base, status: 'succeeded', retryStep: step, nextAttemptAt: null, gone: false };
  }
  if (answered?.status === 410) {
    return { ...base, status: 'failed', retryStep: step, nextAttemptAt: null, gone: true };
  }
  if (result.kind === 'oversized') {
    return { ...base, status: 'failed', retryStep: step, nextAttemptAt: null, gone: false };
  }
  const delay = retryDelayMs(step, clock.random);
  if (delay === null) return { ...base, status: 'failed', retryStep: step, nextAttemptAt: null, gone: false };
  const waitMs = Math.max(delay, retryAfterMs(answered, clock.now) ?? 0);
  return {
    ...base,
    status: 'retrying',
    retryStep: step,
    nextAttemptAt: new Date(clock.now.getTime() + waitMs),
    gone: false,
  };
}

function errorOf(result: TryResult): string | null {
  if (result.kind === 'refused') return `refused: ${result.reason}`;
  if (result.kind === 'oversized') return `not sent: the body is ${result.bytes} bytes, over 256 KiB`;
  if (result.kind === 'failed') return `${result.error}: ${result.message}`.slice(0, 500);
  return null;
}

/** `Retry-After` of a 429 or 503 (RFC 9110: seconds, or an HTTP date), capped at a day. */
function retryAfterMs(
  answered: { status: number; headers: Record<string, string> } | null,
  now: Date,
): number | null {
  if (!answered || (answered.status !== 429 && answered.status !== 503)) return null;
  const value = answered.headers['retry-after']?.trim();
  if (!value) return null;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now.getTime();
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return Math.min(ms, RETRY_AFTER_MAX_SECONDS * 1000);
}

/** The text's first `max` bytes of UTF-8, cut between characters, without NUL (Postgres text has none). */
export function firstBytes(text: string, max: number): string {
  const clean = text.replaceAll('\u0000', '');
  const bytes = new TextEncoder().encode(clean);
  if (bytes.length <= max) return clean;
  let end = max;
  // Back up over continuation bytes (10xxxxxx) to the start of the character that does not fit.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}
