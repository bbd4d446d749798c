import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import { projectKeys } from '../api/query-keys.ts';

/** A project changed (or many things did): the workspace's projects are read again. */
export function applyProjectEvent(queryClient: QueryClient, event: LiveEvent): void {
  const touched =
    event.kind === 'bulk'
      ? event.types.some((type) => type.startsWith('project.'))
      : event.type.startsWith('project.');
  if (touched) void queryClient.invalidateQueries({ queryKey: projectKeys.all });
}
