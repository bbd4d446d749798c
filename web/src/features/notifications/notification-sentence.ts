import type { components } from '@api-spec/schema.d.ts';
import { formatDueDate } from '../../lib/dates/due-date.ts';

type Notification = components['schemas']['Notification'];

/** Who acted, by name; a deleted account or Tasklane itself has none. */
const actorOf = (notification: Notification): string => notification.actor?.display_name || 'Someone';

/** "WEB-12 · Fix the login redirect", or "a task" when it is gone. */
const taskOf = (notification: Notification): string =>
  notification.task ? `${notification.task.key} · ${notification.task.title}` : 'a task';

const times = (count: number): string => (count === 1 ? 'once' : `${count} times`);

/**
 * A notification in one sentence: "Maya mentioned you on WEB-12 · Fix the login redirect", "Maya changed
 * WEB-12 3 times", "WEB-12 is due tomorrow", "Leo accepted your invitation to Acme".
 */
export function notificationSentence(notification: Notification, now: Date = new Date()): string {
  const actor = actorOf(notification);
  const key = notification.task?.key ?? 'A task';
  switch (notification.type) {
    case 'assigned':
      return `${actor} assigned you ${taskOf(notification)}`;
    case 'mentioned':
      return `${actor} mentioned you on ${taskOf(notification)}`;
    case 'commented':
      return notification.change_count > 1
        ? `${actor} commented ${notification.change_count} times on ${taskOf(notification)}`
        : `${actor} commented on ${taskOf(notification)}`;
    case 'status_changed':
      return notification.change_count > 1
        ? `${actor} changed ${key} ${times(notification.change_count)}`
        : `${actor} changed the status of ${taskOf(notification)}`;
    case 'due_soon':
      return `${key} is due ${dueDay(notification.due_date, now)}`;
    case 'overdue':
      return `${key} is overdue`;
    case 'invitation_accepted':
      return `${actor} accepted your invitation to ${notification.workspace.name}`;
  }
}

/** "today", "tomorrow", "on Dec 4". */
function dueDay(dueDate: string | null, now: Date): string {
  if (!dueDate) return 'soon';
  const day = formatDueDate(dueDate, now);
  return ['Today', 'Tomorrow', 'Yesterday'].includes(day) ? day.toLowerCase() : `on ${day}`;
}
