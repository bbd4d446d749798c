import { describe, expect, it } from 'vitest';
import { formatDueDate, isOverdue } from './due-date.ts';

const now = new Date(2026, 10, 25, 18, 30);

describe('due dates', () => {
  it('names the days around today and writes the others short', () => {
    expect(formatDueDate('2026-11-25', now)).toBe('Today');
    expect(formatDueDate('2026-11-26', now)).toBe('Tomorrow');
    expect(formatDueDate('2026-11-24', now)).toBe('Yesterday');
    expect(formatDueDate('2026-12-04', now)).toBe('Dec 4');
    expect(formatDueDate('2027-01-09', now)).toBe('Jan 9, 2027');
  });

  it('is overdue only once the day has passed', () => {
    expect(isOverdue('2026-11-24', now)).toBe(true);
    expect(isOverdue('2026-11-25', now)).toBe(false);
    expect(isOverdue('2026-12-01', now)).toBe(false);
  });
});
