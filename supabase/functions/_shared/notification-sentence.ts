/**
 * What a notification says, in one sentence addressed to its reader: the inbox and the notification mail
 * both say it this way (docs/notifications.md). No imports but types, so the browser bundle can import
 * this file as is.
 */
import type { NotificationType } from './api-types.ts';

export interface NotificationFacts {
  type: NotificationType;
  /** Who acted; null for Tasklane itself (due dates) or someone whose account is gone. */
  actorName: string | null;
  /** `WEB-12`; null for an accepted invitation. */
  taskKey: string | null;
  workspaceName: string;
  changeCount: number;
}

export function notificationSentence({
  type,
  actorName,
  taskKey,
  workspaceName,
  changeCount,
}: NotificationFacts): string {
  const actor = actorName ?? 'Someone';
  const task = taskKey ?? 'a task';
  const times = changeCount > 1 ? ` ${changeCount} times` : '';
  switch (type) {
    case 'assigned':
      return `${actor} assigned ${task} to you`;
    case 'mentioned':
      return `${actor} mentioned you${times} on ${task}`;
    case 'commented':
      return changeCount > 1
        ? `${actor} left ${changeCount} comments on ${task}`
        : `${actor} commented on ${task}`;
    case 'status_changed':
      return changeCount > 1 ? `${actor} changed ${task}${times}` : `${actor} changed the status of ${task}`;
    case 'due_soon':
      return `${task} is due tomorrow`;
    case 'overdue':
      return `${task} is overdue`;
    case 'invitation_accepted':
      return `${actor} accepted your invitation to ${workspaceName}`;
  }
}
