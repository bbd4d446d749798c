/**
 * Wakes the webhook dispatcher (docs/webhooks.md#how-a-delivery-leaves): a POST to its function with
 * the project's secret key, after the answer, without the request waiting. Wakes that come while one is
 * on its way are folded into one more after it, so a burst of writes costs two calls, not one each.
 * A wake that fails is only logged: the scheduled run (every minute) sends what it would have.
 */
import { runAfterResponse } from '../../_shared/after-response.ts';
import { describeError } from '../../_shared/describe-error.ts';
import type { Logger } from '../../_shared/logger.ts';

const WAKE_TIMEOUT_MS = 5_000;

export interface DispatcherWakeOptions {
  /** The dispatcher function's address, `{SUPABASE_URL}/functions/v1/webhook-dispatcher`. */
  url: string;
  secretKey: string;
  logger: Logger;
}

export function dispatcherWake({ url, secretKey, logger }: DispatcherWakeOptions): () => void {
  let inFlight = false;
  let again = false;
  const call = async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}` },
      signal: AbortSignal.timeout(WAKE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok)
      logger.warn('the webhook dispatcher did not take the wake-up', { status: response.status });
  };
  const wake = (): void => {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    void runAfterResponse(
      () =>
        call().finally(() => {
          inFlight = false;
          if (again) {
            again = false;
            wake();
          }
        }),
      (error) => logger.warn('the webhook dispatcher could not be woken', describeError(error)),
    );
  };
  return wake;
}
