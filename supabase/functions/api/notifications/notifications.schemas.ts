/**
 * The rules for notifications and their settings, written once: the API validates with them and the web
 * reads the same lists. Imports nothing but zod and the shared vocabulary, so the browser bundle can
 * import this file as is.
 */
import { z } from 'zod';
import { NOTIFICATION_DELIVERIES, NOTIFICATION_TYPES } from '../../_shared/vocabulary/spec-values.ts';

export { NOTIFICATION_DELIVERIES, NOTIFICATION_TYPES };

/** Notifications one `POST /v1/me/notifications/batch` may mark. */
export const NOTIFICATIONS_PER_BATCH = 100;

const NotificationDeliverySchema = z.enum(
  NOTIFICATION_DELIVERIES,
  `must be one of ${NOTIFICATION_DELIVERIES.join(', ')}`,
);

/** `true`/`false` in a query string. */
const QueryBoolean = z
  .enum(['true', 'false'], 'must be true or false')
  .transform((value) => value === 'true');

export const NotificationFilterParameters = {
  unread: QueryBoolean.optional(),
  archived: QueryBoolean.optional(),
  workspace: z.string().min(1, 'must not be empty').max(40, 'must be at most 40 characters').optional(),
};

const Marks = {
  read: z.boolean('must be true or false').optional(),
  archived: z.boolean('must be true or false').optional(),
};

export const UpdateNotificationBodySchema = z.strictObject(Marks);

export const UpdateNotificationsBodySchema = z.strictObject({
  ids: z
    .array(z.uuid('must be the id of a notification (a UUID)'))
    .min(1, 'must name at least one notification')
    .max(NOTIFICATIONS_PER_BATCH, `must name at most ${NOTIFICATIONS_PER_BATCH} notifications`)
    .refine((ids) => new Set(ids).size === ids.length, 'must not name a notification twice'),
  ...Marks,
});

export const MarkAllNotificationsReadBodySchema = z.strictObject({
  workspace: NotificationFilterParameters.workspace,
});

export const UpdateNotificationSettingsBodySchema = z.strictObject({
  deliveries: z.strictObject(
    Object.fromEntries(
      NOTIFICATION_TYPES.map((type) => [type, NotificationDeliverySchema.optional()]),
    ) as Record<(typeof NOTIFICATION_TYPES)[number], z.ZodOptional<typeof NotificationDeliverySchema>>,
  ),
});

export type NotificationMarks = z.output<typeof UpdateNotificationBodySchema>;
export type UpdateNotificationSettingsBody = z.output<typeof UpdateNotificationSettingsBodySchema>;
export type NotificationFilters = {
  unread?: boolean | undefined;
  archived?: boolean | undefined;
  workspace?: string | undefined;
};
