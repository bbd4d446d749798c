import type { components } from '@api-spec/schema.d.ts';

type Notification = components['schemas']['Notification'];

export interface NotificationDay {
  /** "Today", "Yesterday", then "Mon, Nov 23" (with the year outside the current one). */
  label: string;
  notifications: Notification[];
}

const startOfDay = (date: Date): number =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

function dayLabel(day: number, now: Date): string {
  const days = Math.round((startOfDay(now) - day) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  const date = new Date(day);
  return date.toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/**
 * The notifications by the day they last changed (where the reader is), newest day first; within a day the
 * unread ones first, each part keeping the list's order (most recently changed first).
 */
export function groupByDay(
  notifications: readonly Notification[],
  now: Date = new Date(),
): NotificationDay[] {
  const days = new Map<number, Notification[]>();
  for (const notification of notifications) {
    const day = startOfDay(new Date(notification.updated_at));
    days.set(day, [...(days.get(day) ?? []), notification]);
  }
  return [...days.entries()]
    .sort(([a], [b]) => b - a)
    .map(([day, list]) => ({
      label: dayLabel(day, now),
      notifications: [...list.filter((n) => n.read_at === null), ...list.filter((n) => n.read_at !== null)],
    }));
}
