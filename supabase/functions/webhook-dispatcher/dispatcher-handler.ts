/**
 * The dispatcher's HTTP face: `POST /functions/v1/webhook-dispatcher` with the project's secret key,
 * from pg_cron every minute and from the API after a commit (docs/webhooks.md#how-a-delivery-leaves).
 * Answers `202` at once and sends in the background; calls that come while a run is going make it go
 * round once more instead of starting a second one, so an instance never races itself.
 */
import { runAfterResponse } from '../_shared/after-response.ts';
import { isSameSecret } from '../_shared/auth/same-secret.ts';
import { describeError } from '../_shared/describe-error.ts';
import { dispatchDue, type DispatcherDeps } from './dispatch-due.ts';

/** A run stops claiming after this long; what is left goes with the next run. */
const RUN_BUDGET_MS = 50_000;

export interface DispatcherHandlerOptions {
  deps: DispatcherDeps;
  /** The project's secret key, which every caller sends as its bearer. */
  secretKey: string | undefined;
}

export function dispatcherHandler({
  deps,
  secretKey,
}: DispatcherHandlerOptions): (request: Request) => Promise<Response> {
  let running = false;
  let again = false;
  const runUntilQuiet = async () => {
    running = true;
    try {
      do {
        again = false;
        await dispatchDue(deps, RUN_BUDGET_MS);
      } while (again);
    } finally {
      running = false;
    }
  };
  return async (request) => {
    if (request.method !== 'POST') return answer(405, { error: 'POST only' }, { allow: 'POST' });
    const bearer = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!bearer || !secretKey || !(await isSameSecret(bearer, secretKey))) {
      return answer(401, { error: "the project's secret key is required" });
    }
    if (running) again = true;
    else {
      void runAfterResponse(runUntilQuiet, (error) =>
        deps.logger.error('webhook dispatch failed', describeError(error)),
      );
    }
    return answer(202, { dispatching: true });
  };
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}
