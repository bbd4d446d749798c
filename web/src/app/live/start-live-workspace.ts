import { notifyManager, type QueryClient } from '@tanstack/react-query';
import { readEventsAfter } from '../../features/activity/api/read-events-after.ts';
import { liveChangeOf } from '../../features/activity/realtime/live-change-of.ts';
import { isLeavingWorkspace, onLeavingFailed } from '../../features/members/api/remove-member.ts';
import { taskCacheHolds } from '../../features/tasks/realtime/task-cache-holds.ts';
import { createLiveSync } from '../../lib/realtime/live-sync.ts';
import { connectWorkspace } from '../../lib/realtime/workspace-channel.ts';
import { applyLiveEvent } from './apply-live-event.ts';
import { workspaceLost } from './workspace-lost.ts';

export interface LiveWorkspace {
  queryClient: QueryClient;
  slug: string;
  workspaceId: string;
  me: { id: string };
}

/**
 * Joins the workspace's channel; each of its messages says that the change feed moved, and the feed is
 * read (through the API, which checks access on every call) and its events applied; also after every
 * (re)join. When the feed refuses this person, the workspace's screens read it again and say why.
 * While this person leaves the workspace, messages start no read (it would answer 404); should leaving
 * fail, the feed is read from where it was. Returns how to leave.
 */
export function startLiveWorkspace({ queryClient, slug, workspaceId, me }: LiveWorkspace): () => void {
  const sync = createLiveSync({
    // One event changes several cached lists (two columns, the counts, the task): each change would
    // otherwise reach the screen in a render of its own.
    apply: (event) => notifyManager.batch(() => applyLiveEvent(queryClient, slug, me.id, event)),
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
    holds: (message) => taskCacheHolds(queryClient, message),
    refused: () => workspaceLost(queryClient),
  });
  const leave = connectWorkspace({
    workspaceId,
    me,
    onMessage: (message) => {
      if (!isLeavingWorkspace(queryClient, slug, me.id)) sync.receive(message);
    },
    onJoined: () => void sync.joined(),
  });
  const stopWatchingLeave = onLeavingFailed(queryClient, slug, me.id, () => void sync.joined());
  return () => {
    stopWatchingLeave();
    sync.stop();
    leave();
  };
}
