import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { readEventsAfter } from '../../features/activity/api/read-events-after.ts';
import { liveChangeOf } from '../../features/activity/realtime/live-change-of.ts';
import { createLiveSync } from '../../lib/realtime/live-sync.ts';
import { connectWorkspace } from '../../lib/realtime/workspace-channel.ts';
import { applyLiveEvent } from './apply-live-event.ts';

export interface LivePerson {
  id: string;
  displayName: string;
}

/**
 * Keeps the open workspace's cached data live while its screens are shown: joins its channel, applies
 * each change broadcast, catches up through the change feed after every (re)join, and leaves on a change
 * of workspace or person (sign-out unmounts the workspace's screens).
 */
export function useLiveWorkspace(
  slug: string,
  workspaceId: string | undefined,
  me: LivePerson | undefined,
): void {
  const queryClient = useQueryClient();
  const meId = me?.id;
  const displayName = me?.displayName;
  useEffect(() => {
    if (!workspaceId || !meId || displayName === undefined) return;
    const sync = createLiveSync({
      apply: (event) => applyLiveEvent(queryClient, meId, event),
      readAfter: async (cursor) => {
        const page = await readEventsAfter(slug, cursor);
        return {
          events: page.data.map(liveChangeOf),
          next_cursor: page.next_cursor,
          has_more: page.has_more,
        };
      },
      refreshSince: (time) =>
        queryClient.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt < time }),
    });
    const leave = connectWorkspace({
      workspaceId,
      me: { id: meId, displayName },
      onEvent: sync.receive,
      onJoined: () => void sync.joined(),
    });
    return () => {
      sync.stop();
      leave();
    };
  }, [queryClient, slug, workspaceId, meId, displayName]);
}
