import type { components } from '@api-spec/schema.d.ts';
import { describe, expect, test } from 'vitest';
import { notificationSentence } from './notification-sentence.ts';

type Notification = components['schemas']['Notification'];

const base: Notification = {
  object: 'notification',
  id: '3b7c9e1a-2f4d-4a6b-8c0d-1e2f3a4b5c6d',
  type: 'mentioned',
  workspace: { id: '9d3c1f6e-2a4b-4c8d-9e0f-1a2b3c4d5e6f', slug: 'acme', name: 'Acme' },
  task: {
    id: '5c3e2a10-8b7d-4f6e-9a01-3d2c1b0a9f8e',
    key: 'WEB-12',
    title: 'Fix the login redirect',
    status: 'todo',
  },
  actor: { id: '7d1f0c22-1a2b-4c3d-8e4f-5a6b7c8d9e0f', display_name: 'Maya' },
  comment: null,
  change_count: 1,
  due_date: null,
  read_at: null,
  archived_at: null,
  created_at: '2026-11-29T09:12:31.204Z',
  updated_at: '2026-11-29T09:12:31.204Z',
};
const now = new Date(2026, 10, 29, 12);

describe('notificationSentence', () => {
  test('a mention names the actor and the task', () => {
    expect(notificationSentence(base, now)).toBe('Maya mentioned you on WEB-12 · Fix the login redirect');
  });

  test('folded status changes say how many', () => {
    expect(notificationSentence({ ...base, type: 'status_changed', change_count: 3 }, now)).toBe(
      'Maya changed WEB-12 3 times',
    );
    expect(notificationSentence({ ...base, type: 'status_changed' }, now)).toBe(
      'Maya changed the status of WEB-12 · Fix the login redirect',
    );
  });

  test('due dates are told relative to today', () => {
    const due = { ...base, type: 'due_soon' as const, actor: null };
    expect(notificationSentence({ ...due, due_date: '2026-11-30' }, now)).toBe('WEB-12 is due tomorrow');
    expect(notificationSentence({ ...due, due_date: '2026-11-29' }, now)).toBe('WEB-12 is due today');
    expect(notificationSentence({ ...due, due_date: '2026-12-04' }, now)).toBe('WEB-12 is due on Dec 4');
    expect(notificationSentence({ ...due, type: 'overdue', due_date: '2026-11-28' }, now)).toBe(
      'WEB-12 is overdue',
    );
  });

  test('an accepted invitation names the workspace', () => {
    const accepted = { ...base, type: 'invitation_accepted' as const, task: null };
    expect(notificationSentence({ ...accepted, actor: { id: base.id, display_name: 'Leo' } }, now)).toBe(
      'Leo accepted your invitation to Acme',
    );
  });

  test('assignments and comments, with a deleted actor', () => {
    expect(notificationSentence({ ...base, type: 'assigned', actor: null }, now)).toBe(
      'Someone assigned you WEB-12 · Fix the login redirect',
    );
    expect(notificationSentence({ ...base, type: 'commented', change_count: 2 }, now)).toBe(
      'Maya commented 2 times on WEB-12 · Fix the login redirect',
    );
  });
});
