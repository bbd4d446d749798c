import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../../lib/realtime/live-event.ts';
import { activityKeys } from '../api/query-keys.ts';

/** Any change is news for the feed: it reads on from where it stopped. */
export function applyActivityEvent(queryClient: QueryClient, _event: LiveEvent): void {
  void queryClient.invalidateQueries({ queryKey: activityKeys.all });
}
