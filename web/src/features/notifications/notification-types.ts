import type { components } from '@api-spec/schema.d.ts';

type NotificationType = components['schemas']['NotificationType'];
type NotificationDelivery = components['schemas']['NotificationDelivery'];

/** Every type, in the order the settings list them. */
export const NOTIFICATION_TYPES: readonly NotificationType[] = [
  'assigned',
  'mentioned',
  'commented',
  'status_changed',
  'due_soon',
  'overdue',
  'invitation_accepted',
];

/** A type's name in the settings. */
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  assigned: 'Assigned to you',
  mentioned: 'Mentions',
  commented: 'Comments on tasks you watch',
  status_changed: 'Status changes on tasks you watch',
  due_soon: 'Due tomorrow',
  overdue: 'Overdue',
  invitation_accepted: 'Invitation accepted',
};

/** A type inside a sentence: "e-mails about mentions and assignments". */
const TYPE_TOPICS: Record<NotificationType, string> = {
  assigned: 'assignments',
  mentioned: 'mentions',
  commented: 'comments on tasks you watch',
  status_changed: 'status changes on tasks you watch',
  due_soon: 'tasks due tomorrow',
  overdue: 'overdue tasks',
  invitation_accepted: 'accepted invitations',
};

export const DELIVERIES: readonly NotificationDelivery[] = ['inbox', 'email_now', 'email_digest', 'off'];

export const DELIVERY_LABELS: Record<NotificationDelivery, string> = {
  inbox: 'In the inbox',
  email_now: 'E-mail at once',
  email_digest: 'E-mail in a daily digest',
  off: 'Off',
};

/** "mentions", "mentions and assignments", "mentions, assignments and overdue tasks". */
export function topicsOf(types: readonly NotificationType[]): string {
  const topics = types.map((type) => TYPE_TOPICS[type]);
  if (topics.length <= 1) return topics[0] ?? '';
  return `${topics.slice(0, -1).join(', ')} and ${topics[topics.length - 1]}`;
}

const isNotificationType = (value: unknown): value is NotificationType =>
  typeof value === 'string' && (NOTIFICATION_TYPES as readonly string[]).includes(value);

/**
 * The types an unsubscribe token names, read from its payload (`<base64url JSON {v:1,u,t}>.<signature>`)
 * only to say what will stop: the API checks the signature. Undefined when it cannot be read.
 */
export function typesInUnsubscribeToken(token: string): NotificationType[] | undefined {
  const [payload] = token.split('.');
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    const json: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
    if (typeof json !== 'object' || json === null || !('t' in json) || !Array.isArray(json.t))
      return undefined;
    const types = json.t.filter(isNotificationType);
    return types.length > 0 ? types : undefined;
  } catch {
    return undefined;
  }
}
