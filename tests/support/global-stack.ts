import type { TestProject } from 'vitest/node';
import { readKeys } from '../../local/keys.ts';
import { mailboxUrl } from './mailbox-client.ts';
import { startStandIn } from './stand-in-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { apiUrl: string; webUrl: string; mailboxUrl: string; anonKey: string };
  }
}

/** The browser tests run against the full stack, started as `npm start` starts it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const standIn = await startStandIn({ web: true });
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
