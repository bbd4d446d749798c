/** A due date (`YYYY-MM-DD`, a calendar day with no time zone) as people read it, and whether it has passed. */

function dayOf(isoDate: string): Date {
  const [year = 0, month = 1, day = 1] = isoDate.split('-').map(Number);
  return new Date(year, month - 1, day);
}

function startOfToday(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** Past due: the day is before today where the reader is (due today is not overdue). */
export function isOverdue(isoDate: string, now: Date = new Date()): boolean {
  return dayOf(isoDate) < startOfToday(now);
}

/** "Today", "Tomorrow", "Yesterday", "Dec 4", or "Dec 4, 2027" outside the current year. */
export function formatDueDate(isoDate: string, now: Date = new Date()): string {
  const day = dayOf(isoDate);
  const days = Math.round((day.getTime() - startOfToday(now).getTime()) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Tomorrow';
  if (days === -1) return 'Yesterday';
  const sameYear = day.getFullYear() === now.getFullYear();
  return day.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}
