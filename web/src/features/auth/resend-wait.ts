/** Seconds the "Resend" button waits after each mail: GoTrue's default `max_frequency` on hosted projects. */
export const RESEND_INTERVAL_SECONDS = 60;

const WAIT_IN_MESSAGE = /after (\d+) seconds?/;

/**
 * The seconds Auth's 429 asks to wait ("For security purposes, you can only request this after 42
 * seconds."), or the usual interval when the answer does not say.
 */
export function secondsToWaitAfter(error: unknown): number | null {
  if (!(error instanceof Error) || !('status' in error) || error.status !== 429) return null;
  const seconds = Number(WAIT_IN_MESSAGE.exec(error.message)?.[1]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : RESEND_INTERVAL_SECONDS;
}
