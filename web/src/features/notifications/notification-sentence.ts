import type { components } from '@api-spec/schema.d.ts';
import { notificationSentence as sentenceOf } from '@shared/notification-sentence.ts';
import { formatDueDate } from '../../lib/dates/due-date.ts';

type Notification = components['schemas']['Notification'];

/**
 * A notification in one sentence, as the notification mail says it too (the shared sentence): "Maya
 * mentioned you on WEB-12 · Fix the login redirect", "Maya changed WEB-12 3 times", "WEB-12 is due
 * tomorrow", "Leo accepted your invitation to Acme".
 */
export function notificationSentence(notification: Notification, now: Date = new Date()): string {
  const { task } = notification;
  return sentenceOf({
    type: notification.type,
    actorName: notification.actor?.display_name ?? null,
    taskKey: task?.key ?? null,
    taskLabel: task ? `${task.key} · ${task.title}` : null,
    workspaceName: notification.workspace.name,
    changeCount: notification.change_count,
    dueDay: dueDay(notification.due_date, now),
  });
}

/** "today", "tomorrow", "on Dec 4". */
function dueDay(dueDate: string | null, now: Date): string {
  if (!dueDate) return 'soon';
  const day = formatDueDate(dueDate, now);
  return ['Today', 'Tomorrow', 'Yesterday'].includes(day) ? day.toLowerCase() : `on ${day}`;
}
