import { describe, expect, it } from 'vitest';
import { suggestStatus } from './status-suggestion.ts';

describe('suggestStatus', () => {
  it.each([
    ['Backlog', 'backlog'],
    ['Icebox', 'backlog'],
    ['💡 Ideas', 'backlog'],
    ['To do', 'todo'],
    ['TODO', 'todo'],
    ['Next', 'todo'],
    ['Doing', 'in_progress'],
    ['In progress', 'in_progress'],
    ['in_progress', 'in_progress'],
    ['WIP', 'in_progress'],
    ['Review', 'in_review'],
    ['QA', 'in_review'],
    ['Testing', 'in_review'],
    ['Done', 'done'],
    ['Completed', 'done'],
    ['Shipped 🚀', 'done'],
    ['Sprint 3 - in progress', 'in_progress'],
    ['Cancelled', 'canceled'],
    ['Inbox', 'todo'],
    ['', 'todo'],
  ])('suggests %j → %s', (name, status) => {
    expect(suggestStatus(name)).toBe(status);
  });
});
