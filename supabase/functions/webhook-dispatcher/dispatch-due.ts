/**
 * One run of the dispatcher (docs/webhooks.md): claims the due deliveries, sends each (signed, to the
 * address checked for it, docs/decisions/0049), and records how it went, until none is due or the run's
 * budget is spent. At least once: a delivery whose try is not recorded (the dispatcher died) is due
 * again when its claim's lease ends, and goes with the same webhook-id.
 */
import type { Database } from '../_shared/db.ts';
import { describeError } from '../_shared/describe-error.ts';
import { WEBHOOK_PAYLOAD_MAX_BYTES, WEBHOOK_TIMEOUT_SECONDS } from '../_shared/limits.ts';
import type { Logger } from '../_shared/logger.ts';
import { sendChecked } from '../_shared/outbound/checked-request.ts';
import type { Connector } from '../_shared/outbound/connector.ts';
import type { Resolver } from '../_shared/outbound/destination.ts';
import { signWebhook } from '../_shared/webhooks/standard-webhooks.ts';
import { webhookBodyOf } from '../_shared/webhooks/webhook-body.ts';
import { eventRowOf } from '../_shared/webhooks/webhook-delivery-row.ts';
import {
  claimDueDeliveries,
  queueStoppedWebhookMail,
  recordAttempt,
  type AttemptRecord,
  type ClaimedDelivery,
} from './dispatcher.queries.ts';
import { attemptOutcome, type TryResult } from './attempt-outcome.ts';
import { stoppedWebhookMail } from './stopped-webhook-mail.ts';

/** Deliveries claimed at once, and sent at once. */
const BATCH = 50;
/** Longer than a try can take (10 s) with room to record it: a claim not recorded by then is due again. */
const LEASE_SECONDS = 60;
/** A webhook whose every try failed for this long is switched off. */
const FAILING_FOR_SECONDS = 3 * 24 * 60 * 60;
/** The response's first bytes kept in the delivery log. */
const RESPONSE_BYTES_KEPT = 4096;

export interface DispatcherDeps {
  db: Database;
  logger: Logger;
  resolve: Resolver;
  connect: Connector;
  /** Plain http to loopback: only where the stand-in runs. */
  allowLoopbackHttp: boolean;
  /** Where the webhook settings are, for the mail saying a webhook was switched off. */
  appUrl: string;
  /** How long a try may take; WEBHOOK_TIMEOUT_SECONDS unless a test says less. */
  timeoutMs?: number;
  now?: () => Date;
  random?: () => number;
}

export interface DispatchRun {
  sent: number;
  succeeded: number;
}

/** Sends due deliveries until none is due or `budgetMs` is spent (the next run goes on). */
export async function dispatchDue(deps: DispatcherDeps, budgetMs: number): Promise<DispatchRun> {
  const run: DispatchRun = { sent: 0, succeeded: 0 };
  const started = Date.now();
  while (Date.now() - started < budgetMs) {
    const claimed = await deps.db.serviceStatements((sql) => claimDueDeliveries(sql, BATCH, LEASE_SECONDS));
    const outcomes = await Promise.all(claimed.map((delivery) => deliver(deps, delivery)));
    run.sent += claimed.length;
    run.succeeded += outcomes.filter(Boolean).length;
    if (claimed.length < BATCH) break;
  }
  return run;
}

/** Sends one delivery and records the try; whether it succeeded. Never throws. */
async function deliver(deps: DispatcherDeps, delivery: ClaimedDelivery): Promise<boolean> {
  try {
    const { headers, result } = await send(deps, delivery);
    const attempt = attemptOutcome(delivery, headers, result, {
      now: (deps.now ?? (() => new Date()))(),
      random: (deps.random ?? Math.random)(),
      responseBytesKept: RESPONSE_BYTES_KEPT,
    });
    await record(deps, delivery, attempt);
    return attempt.status === 'succeeded';
  } catch (error) {
    // Left claimed: due again when the lease ends.
    deps.logger.error('webhook delivery not recorded', {
      delivery_id: delivery.delivery_id,
      ...describeError(error),
    });
    return false;
  }
}

async function send(
  deps: DispatcherDeps,
  delivery: ClaimedDelivery,
): Promise<{ headers: Record<string, string>; result: TryResult }> {
  const body = webhookBodyOf(delivery.payload, eventRowOf(delivery));
  const timestamp = Math.floor((deps.now ?? (() => new Date()))().getTime() / 1000);
  const secrets = delivery.previous_secret ? [delivery.secret, delivery.previous_secret] : [delivery.secret];
  const headers = {
    'content-type': 'application/json',
    'webhook-id': delivery.delivery_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await signWebhook({ id: delivery.delivery_id, timestamp, body, secrets }),
  };
  const bytes = new TextEncoder().encode(body).length;
  if (bytes > WEBHOOK_PAYLOAD_MAX_BYTES) return { headers, result: { kind: 'oversized', bytes } };
  const result = await sendChecked(
    { url: delivery.url, method: 'POST', headers, body },
    {
      resolve: deps.resolve,
      connect: deps.connect,
      allowLoopbackHttp: deps.allowLoopbackHttp,
      timeoutMs: deps.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000,
      maxResponseBytes: RESPONSE_BYTES_KEPT,
    },
  );
  return { headers, result };
}

async function record(
  deps: DispatcherDeps,
  delivery: ClaimedDelivery,
  attempt: AttemptRecord,
): Promise<void> {
  const health = await deps.db.serviceStatements((sql) => recordAttempt(sql, attempt, FAILING_FOR_SECONDS));
  if (!health.stopped_failing) return;
  deps.logger.warn('webhook switched off: every delivery failed for 3 days', {
    webhook_id: delivery.webhook_id,
  });
  await deps.db.serviceStatements((sql) =>
    queueStoppedWebhookMail(
      sql,
      delivery.webhook_id,
      stoppedWebhookMail({
        url: delivery.url,
        settingsUrl: `${deps.appUrl}/w/${delivery.workspace_slug}/settings/webhooks`,
      }),
    ),
  );
}
