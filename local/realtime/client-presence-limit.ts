/**
 * Hosted's limit on a client's presence messages (realtime's presence_handler.ex,
 * limit_client_presence_event): every `presence` push of a channel counts, track or untrack, before
 * anything else is looked at, in a fixed window that starts with the first one and ends `windowMs`
 * later; the next message after the window starts a new one. A message over `maxCalls` in a window is
 * refused, and Realtime shuts the channel down with "Client presence rate limit exceeded".
 */
export interface ClientPresenceLimit {
  maxCalls: number;
  windowMs: number;
}

/** A channel's count in its current window; `resetAt` null before its first presence message. */
export interface PresenceWindow {
  count: number;
  resetAt: number | null;
}

export const NO_PRESENCE_YET: PresenceWindow = { count: 0, resetAt: null };

/** The window after one more presence message at `now`, or null when the message is over the limit. */
export function countPresenceMessage(
  window: PresenceWindow,
  limit: ClientPresenceLimit,
  now: number,
): PresenceWindow | null {
  if (window.resetAt === null || now > window.resetAt) return { count: 1, resetAt: now + limit.windowMs };
  if (window.count >= limit.maxCalls) return null;
  return { count: window.count + 1, resetAt: window.resetAt };
}
