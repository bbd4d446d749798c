import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { notificationKeys } from './query-keys.ts';

export type NotificationSettings = components['schemas']['NotificationSettings'];
export type NotificationDelivery = components['schemas']['NotificationDelivery'];
export type NotificationType = components['schemas']['NotificationType'];

export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => unwrap(api.GET('/v1/me/notification-settings', { signal })),
  });

export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions());
}

export interface DeliveryChange {
  type: NotificationType;
  delivery: NotificationDelivery;
}

/**
 * PUT /v1/me/notification-settings with the one type changed: shown at once, put back if refused; the
 * answer (every setting as it now is) replaces the cached one.
 */
export function useUpdateNotificationSetting() {
  return useMutation({
    mutationFn: ({ type, delivery }: DeliveryChange) =>
      unwrap(api.PUT('/v1/me/notification-settings', { body: { deliveries: { [type]: delivery } } })),
    onMutate: async ({ type, delivery }, { client }) => {
      await client.cancelQueries({ queryKey: notificationKeys.settings() });
      const before = client.getQueryData<NotificationSettings>(notificationKeys.settings());
      if (before) {
        client.setQueryData<NotificationSettings>(notificationKeys.settings(), {
          ...before,
          deliveries: { ...before.deliveries, [type]: delivery },
        });
      }
      return { before };
    },
    onError: (_error, _change, snapshot, { client }) => {
      if (snapshot?.before) client.setQueryData(notificationKeys.settings(), snapshot.before);
    },
    onSuccess: (settings, _change, _snapshot, { client }) =>
      client.setQueryData(notificationKeys.settings(), settings),
  });
}
