/**
 * What a notification says, in one sentence addressed to its reader: the inbox and the notification mail
 * both say it this way (docs/notifications.md), from this one file. No imports but types, so the browser
 * bundle can import this file as is.
 */
import type { NotificationType } from './api-types.ts';

export interface NotificationFacts {
  type: NotificationType;
  /** Who acted; null for Tasklane itself (due dates) or someone whose account is gone. */
  actorName: string | null;
  /** `WEB-12`; null for an accepted invitation, or a task that is gone. */
  taskKey: string | null;
  /**
   * How the sentence names the task where it is the object: `WEB-12 · Fix the login redirect` in the inbox;
   * the key when left out (the mail puts the title on a line of its own).
   */
  taskLabel?: string | null;
  workspaceName: string;
  changeCount: number;
  /** When a `due_soon` task is due: "today", "tomorrow", "on Dec 4"; "tomorrow" when left out. */
  dueDay?: string;
}

/**
 * "Maya mentioned you on WEB-12", "Maya changed WEB-12 3 times", "WEB-12 is due tomorrow", "Leo accepted
 * your invitation to Acme".
 */
export function notificationSentence({
  type,
  actorName,
  taskKey,
  taskLabel,
  workspaceName,
  changeCount,
  dueDay = 'tomorrow',
}: NotificationFacts): string {
  const actor = actorName || 'Someone';
  const task = taskLabel || taskKey || 'a task';
  const key = taskKey ?? 'a task';
  const subject = taskKey ?? 'A task';
  const times = changeCount > 1 ? ` ${changeCount} times` : '';
  switch (type) {
    case 'assigned':
      return `${actor} assigned you ${task}`;
    case 'mentioned':
      return `${actor} mentioned you${times} on ${task}`;
    case 'commented':
      return `${actor} commented${times} on ${task}`;
    case 'status_changed':
      return changeCount > 1 ? `${actor} changed ${key}${times}` : `${actor} changed the status of ${task}`;
    case 'due_soon':
      return `${subject} is due ${dueDay}`;
    case 'overdue':
      return `${subject} is overdue`;
    case 'invitation_accepted':
      return `${actor} accepted your invitation to ${workspaceName}`;
  }
}
