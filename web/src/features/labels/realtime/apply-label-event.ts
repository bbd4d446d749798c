import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import { labelKeys } from '../api/query-keys.ts';

/** A label changed (or many things did): the workspace's labels are read again. */
export function applyLabelEvent(queryClient: QueryClient, event: LiveEvent): void {
  const touched =
    event.kind === 'bulk'
      ? event.types.some((type) => type.startsWith('label.'))
      : event.type.startsWith('label.');
  if (touched) void queryClient.invalidateQueries({ queryKey: labelKeys.all });
}
