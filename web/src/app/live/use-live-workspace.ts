import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { loadRealtimeClient } from '../../lib/realtime/realtime-client.ts';

/**
 * Keeps the open workspace's cached data live while its screens are shown: joins its channel, reads the
 * change feed when a message says it moved and after every (re)join, and leaves on a change of
 * workspace or person (sign-out unmounts the workspace's screens). The code that does it loads with
 * the realtime client, after the first paint (decision 0029): the join catches up on what came before.
 */
export function useLiveWorkspace(
  slug: string,
  workspaceId: string | undefined,
  meId: string | undefined,
): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!workspaceId || !meId) return;
    let left = false;
    let leave: (() => void) | undefined;
    void loadRealtimeClient()
      .then(() => import('./start-live-workspace.ts'))
      .then(({ startLiveWorkspace }) => {
        if (left) return;
        leave = startLiveWorkspace({ queryClient, slug, workspaceId, me: { id: meId } });
      });
    return () => {
      left = true;
      leave?.();
    };
  }, [queryClient, slug, workspaceId, meId]);
}
