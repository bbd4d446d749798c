/**
 * Bookkeeping a request does after its answer is made, which the answer does not wait for
 * (docs/decisions/0016): handing a `304`'s count back, marking a sent mail sent. Each piece takes its
 * connection from the pool and gives it back once done. On the hosted Edge Runtime the worker is kept
 * alive for it (`EdgeRuntime.waitUntil`); elsewhere the process outlives the request anyway.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface EdgeRuntimeGlobal {
  EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void };
}

const runAfterResponseContext = new AsyncLocalStorage<true>();
const running = new Set<Promise<void>>();

/**
 * Starts `work` now, without the caller waiting for it; a failure goes to `onFailure` (work that may
 * not be lost must leave itself due for a later try, as the mail outbox does).
 */
export function runAfterResponse(
  work: () => Promise<unknown>,
  onFailure: (error: unknown) => void,
): Promise<void> {
  const done: Promise<void> = runAfterResponseContext
    .run(true, work)
    .then(
      () => undefined,
      (error: unknown) => onFailure(error),
    )
    .finally(() => running.delete(done));
  running.add(done);
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(done);
  return done;
}

/** Whether the code running now is work `runAfterResponse` started (the round-trip test tells them apart). */
export const isAfterAnswer = (): boolean => runAfterResponseContext.getStore() === true;

/** Resolves once all the work `runAfterResponse` has started so far is done. */
export async function runAfterResponseSettled(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}
