/** The usual setup of an API test file about tasks. */
import { RATE_LIMITS_OUT_OF_THE_WAY, useTestApp } from './api-app.ts';
import { taskCalls } from './task-calls.ts';
import { useTwoWorkspaces } from './workspace-fixture.ts';

/**
 * useTestApp with the rate limits out of the way, task calls on its app, and two workspaces (acme and
 * globex) made before the file's tests.
 */
export function useTaskTestApp() {
  const api = useTestApp({ rateLimits: RATE_LIMITS_OUT_OF_THE_WAY });
  return { api, tasks: () => taskCalls(api.app), ...useTwoWorkspaces(api) };
}
