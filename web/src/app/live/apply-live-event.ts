import type { QueryClient } from '@tanstack/react-query';
import { applyActivityEvent } from '../../features/activity/realtime/apply-activity-event.ts';
import { applyAttachmentEvent } from '../../features/attachments/realtime/apply-attachment-event.ts';
import { applyLabelEvent } from '../../features/labels/realtime/apply-label-event.ts';
import { applyMemberEvent } from '../../features/members/realtime/apply-member-event.ts';
import { applyProjectEvent } from '../../features/projects/realtime/apply-project-event.ts';
import { applyTaskEvent } from '../../features/tasks/realtime/apply-task-event.ts';
import { workspaceKeys } from '../../features/workspaces/api/query-keys.ts';
import type { LiveEvent } from '../../lib/realtime/live-event.ts';
import { workspaceLost } from './workspace-lost.ts';

/** One event of the feed of the workspace `slug` (or a bulk message), handed to each feature that caches something it changes. */
export function applyLiveEvent(queryClient: QueryClient, slug: string, meId: string, event: LiveEvent): void {
  const aboutMe = event.kind === 'change' && event.type.startsWith('member.') && event.resource_id === meId;
  // This person left, or changed their own role: the screen that did it has already moved on.
  if (aboutMe && event.actor_id === meId) return;
  // Removed by someone else: nothing of the workspace can be read any more; it says so when read again.
  if (aboutMe && event.type === 'member.removed') return workspaceLost(queryClient);
  applyTaskEvent(queryClient, event, slug);
  applyProjectEvent(queryClient, event);
  applyLabelEvent(queryClient, event);
  applyMemberEvent(queryClient, event);
  applyActivityEvent(queryClient, event);
  applyAttachmentEvent(queryClient, event);
  // Someone changed this person's role: what the workspace lets them do is read again.
  if (aboutMe) void queryClient.invalidateQueries({ queryKey: workspaceKeys.all });
}
