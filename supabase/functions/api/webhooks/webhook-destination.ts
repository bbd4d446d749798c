/**
 * Whether a webhook's URL may be saved: its shape and literal address (_shared/outbound/webhook-url.ts),
 * then every address its host resolves to (destination.ts). The dispatcher checks again at every try,
 * and connects to the address it checked, so a name that later resolves elsewhere gains nothing.
 */
import { AppError } from '../../_shared/errors.ts';
import { resolveDestination, type Resolver } from '../../_shared/outbound/destination.ts';
import { parseWebhookUrl } from '../../_shared/outbound/webhook-url.ts';

export interface WebhookDestinations {
  resolve: Resolver;
  /** Plain http to loopback: only where the stand-in runs locally. */
  allowLoopbackHttp: boolean;
}

/** Resolves no name: without a resolver, only literal addresses can be judged (and loopback's refused). */
const NO_DESTINATIONS: WebhookDestinations = { resolve: () => Promise.resolve([]), allowLoopbackHttp: false };

/** The URL as it will be called (normalized); `422` on `body.url` when it may not be. */
export async function requireWebhookDestination(
  raw: string,
  destinations: WebhookDestinations = NO_DESTINATIONS,
): Promise<string> {
  const parsed = parseWebhookUrl(raw, { allowLoopbackHttp: destinations.allowLoopbackHttp });
  if (!parsed.ok) throw refusedUrl(parsed.reason);
  const checked = await resolveDestination(parsed.url, destinations);
  if (!checked.ok) throw refusedUrl(checked.reason);
  return parsed.url.href;
}

function refusedUrl(reason: string): AppError {
  return new AppError('validation_failed', `The webhook URL ${reason}.`, {
    errors: [{ path: 'body.url', code: 'invalid', message: reason }],
  });
}
