import type { QueryClient } from '@tanstack/react-query';
import { workspaceKeys } from '../../features/workspaces/api/query-keys.ts';

/**
 * This person may no longer read the workspace (removed, or it now requires MFA and the session has not
 * verified a second factor): its screens read it again, and the workspace's answer says so in place of
 * its content.
 */
export function workspaceLost(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: workspaceKeys.all });
}
