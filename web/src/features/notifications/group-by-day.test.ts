import type { components } from '@api-spec/schema.d.ts';
import { describe, expect, test } from 'vitest';
import { groupByDay } from './group-by-day.ts';

type Notification = components['schemas']['Notification'];

const at = (id: string, updated: Date, read = false): Notification => ({
  object: 'notification',
  id,
  type: 'commented',
  workspace: { id: 'w', slug: 'acme', name: 'Acme' },
  task: null,
  actor: null,
  comment: null,
  change_count: 1,
  due_date: null,
  read_at: read ? updated.toISOString() : null,
  archived_at: null,
  created_at: updated.toISOString(),
  updated_at: updated.toISOString(),
});

const now = new Date(2026, 10, 29, 15);
const ids = (notifications: Notification[]) => notifications.map((n) => n.id);

describe('groupByDay', () => {
  test('Today, Yesterday, then dates, newest day first', () => {
    const days = groupByDay(
      [
        at('a', new Date(2026, 10, 29, 14)),
        at('b', new Date(2026, 10, 28, 23, 59)),
        at('c', new Date(2026, 10, 28, 0, 1)),
        at('d', new Date(2026, 10, 23, 9)),
        at('e', new Date(2025, 11, 31, 9)),
      ],
      now,
    );
    expect(days.map((day) => day.label)).toEqual(['Today', 'Yesterday', 'Mon, Nov 23', 'Wed, Dec 31, 2025']);
    expect(ids(days[1]?.notifications ?? [])).toEqual(['b', 'c']);
  });

  test('unread first within a day, each part in the list order', () => {
    const days = groupByDay(
      [
        at('read-new', new Date(2026, 10, 29, 14), true),
        at('unread-new', new Date(2026, 10, 29, 13)),
        at('read-old', new Date(2026, 10, 29, 12), true),
        at('unread-old', new Date(2026, 10, 29, 11)),
      ],
      now,
    );
    expect(days).toHaveLength(1);
    expect(ids(days[0]?.notifications ?? [])).toEqual(['unread-new', 'unread-old', 'read-new', 'read-old']);
  });

  test('nothing, no days', () => {
    expect(groupByDay([], now)).toEqual([]);
  });
});
