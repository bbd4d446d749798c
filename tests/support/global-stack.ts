import type { TestProject } from 'vitest/node';
import { readKeys } from '../../local/keys.ts';
import { mailboxUrl } from './mailbox-client.ts';
import { startStandIn } from './stand-in-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { apiUrl: string; webUrl: string; mailboxUrl: string; anonKey: string };
  }
}

/**
 * The browser tests run against the full stack, started as `npm start` starts it, except that notification
 * mail goes out at once: no 2-minute batch window, and the scheduler sends every half second
 * (tests/e2e/notification-mail.test.ts). No other browser test reads notification mail. The scheduler's
 * calls are signed out (the route checks the secret key itself), so they count against 127.0.0.1's
 * per-IP limit: at two a second they would use up its 60 a minute and refuse every signed-out request
 * (health, the invitation and unsubscribe pages) with 429. The per-IP limit is raised here; no browser
 * test relies on it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const standIn = await startStandIn({
    web: true,
    env: {
      NOTIFICATION_MAIL_BATCH_SECONDS: '0',
      TASKLANE_NOTIFICATION_MAIL_INTERVAL_MS: '500',
      RATE_LIMIT_IP_PER_MINUTE: '1000',
    },
  });
  const keys = await readKeys(standIn.dataDir);
  if (!keys) throw new Error('the stand-in has no keys in its data directory');
  project.provide('stack', {
    apiUrl: standIn.apiUrl,
    webUrl: standIn.webUrl,
    mailboxUrl: mailboxUrl(standIn),
    anonKey: keys.anonKey,
  });
  return () => standIn.dispose();
}
