import { describe, expect, it } from 'vitest';
import { coversEvent, EVENT_GROUPS, toggleEvent } from './webhook-events.ts';

describe('webhook events', () => {
  it('groups the event types by resource, in the spec order', () => {
    expect(EVENT_GROUPS.map((group) => group.resource)).toEqual([
      'task',
      'comment',
      'project',
      'label',
      'member',
      'attachment',
    ]);
  });

  it('lets a wider filter replace the narrower ones it covers', () => {
    expect(toggleEvent(['task.created', 'comment.created'], 'task.*', true)).toEqual([
      'comment.created',
      'task.*',
    ]);
    expect(toggleEvent(['task.*', 'comment.created'], '*', true)).toEqual(['*']);
    expect(toggleEvent(['task.*'], 'task.*', false)).toEqual([]);
    expect(coversEvent(['task.*'], 'task.moved')).toBe(true);
    expect(coversEvent(['task.*'], 'comment.created')).toBe(false);
  });
});
