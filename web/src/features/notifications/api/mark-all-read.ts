import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { changeCachedNotifications, restoreNotifications } from './notification-cache.ts';
import { notificationKeys } from './query-keys.ts';

/** POST /v1/me/notifications/read-all: every unread notification read, shown at once, put back if refused. */
export function useMarkAllRead() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/v1/me/notifications/read-all', { body: {} })),
    onMutate: (_variables, { client }) => {
      const now = new Date().toISOString();
      return changeCachedNotifications(
        client,
        (each) => (each.read_at === null ? { ...each, read_at: now } : each),
        () => 0,
      );
    },
    onError: (_error, _variables, snapshot, { client }) => restoreNotifications(client, snapshot),
    onSettled: (_data, _error, _variables, _snapshot, { client }) =>
      client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
