/**
 * After a request that changed something has committed, asks the webhook dispatcher to send what is
 * due (docs/webhooks.md#how-a-delivery-leaves): the change may have appended events that queued
 * deliveries, and waking it now sends them within a second instead of at the next scheduled run.
 * Reads never wake it; neither do refused requests.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const wakeWebhookDispatcher = (wake: (() => void) | undefined) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (wake && !READS.has(c.req.method) && c.res.status < 400) wake();
  });
