import { describe, expect, test } from 'vitest';
import { notificationSentence, type NotificationFacts } from './notification-sentence.ts';

const facts: NotificationFacts = {
  type: 'mentioned',
  actorName: 'Maya',
  taskKey: 'WEB-12',
  workspaceName: 'Acme',
  changeCount: 1,
};

describe('notificationSentence', () => {
  test('the mail names the task by its key', () => {
    expect(notificationSentence(facts)).toBe('Maya mentioned you on WEB-12');
    expect(notificationSentence({ ...facts, type: 'assigned' })).toBe('Maya assigned you WEB-12');
    expect(notificationSentence({ ...facts, type: 'commented', changeCount: 3 })).toBe(
      'Maya commented 3 times on WEB-12',
    );
    expect(notificationSentence({ ...facts, type: 'due_soon', actorName: null })).toBe(
      'WEB-12 is due tomorrow',
    );
  });

  test('the inbox names it with its title, and says when it is due', () => {
    const inbox = { ...facts, taskLabel: 'WEB-12 · Fix the login redirect' };
    expect(notificationSentence(inbox)).toBe('Maya mentioned you on WEB-12 · Fix the login redirect');
    expect(notificationSentence({ ...inbox, type: 'status_changed', changeCount: 2 })).toBe(
      'Maya changed WEB-12 2 times',
    );
    expect(notificationSentence({ ...inbox, type: 'due_soon', dueDay: 'on Dec 4' })).toBe(
      'WEB-12 is due on Dec 4',
    );
  });

  test('a task that is gone, a deleted actor, an accepted invitation', () => {
    const gone = { ...facts, taskKey: null, actorName: null };
    expect(notificationSentence({ ...gone, type: 'commented' })).toBe('Someone commented on a task');
    expect(notificationSentence({ ...gone, type: 'overdue' })).toBe('A task is overdue');
    expect(notificationSentence({ ...facts, type: 'invitation_accepted', actorName: 'Leo' })).toBe(
      'Leo accepted your invitation to Acme',
    );
  });
});
