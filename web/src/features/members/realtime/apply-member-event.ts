import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import { memberKeys } from '../api/query-keys.ts';

/** A member changed (or many things did): the workspace's members are read again. */
export function applyMemberEvent(queryClient: QueryClient, event: LiveEvent): void {
  const touched =
    event.kind === 'bulk'
      ? event.types.some((type) => type.startsWith('member.'))
      : event.type.startsWith('member.');
  if (touched) void queryClient.invalidateQueries({ queryKey: memberKeys.all });
}
