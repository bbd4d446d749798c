import { describe, expect, test } from 'vitest';
import { positionAfter, positionBefore, stepFor } from './feed-position.ts';
import type { BulkMessage, ChangeMessage } from './live-message.ts';

const change = (seq: number): ChangeMessage => ({
  kind: 'change',
  seq,
  cursor: `c${seq}`,
  previous_cursor: `c${seq - 1}`,
  type: 'task.updated',
  project_id: null,
  task_id: null,
  resource_id: null,
  version: null,
  actor_id: null,
  changed: [],
});
const bulk = (from: number, to: number): BulkMessage => ({
  kind: 'bulk',
  seq_from: from,
  seq_to: to,
  cursor: `c${to}`,
  previous_cursor: `c${from - 1}`,
  types: [],
  project_ids: [],
});

describe('stepFor', () => {
  test('the next event may be taken as it is', () => {
    expect(stepFor({ seq: 4, cursor: 'c4' }, change(5))).toBe('next');
    expect(stepFor({ seq: 5, cursor: 'c5' }, bulk(6, 30))).toBe('next');
  });

  test('an event already applied is skipped', () => {
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(5))).toBe('skip');
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(3))).toBe('skip');
    expect(stepFor({ seq: 30, cursor: 'c30' }, bulk(6, 30))).toBe('skip');
  });

  test('an event after a missing one, or a bulk that is not the next, reads the feed', () => {
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(7))).toBe('read');
    expect(stepFor({ seq: 5, cursor: 'c5' }, bulk(8, 30))).toBe('read');
    expect(stepFor({ seq: 10, cursor: 'c10' }, bulk(8, 30))).toBe('read');
  });
});

describe('positions around a message', () => {
  test('before its first event, and after its last', () => {
    expect(positionBefore(change(12))).toEqual({ seq: 11, cursor: 'c11' });
    expect(positionAfter(change(12))).toEqual({ seq: 12, cursor: 'c12' });
    expect(positionBefore(bulk(6, 30))).toEqual({ seq: 5, cursor: 'c5' });
    expect(positionAfter(bulk(6, 30))).toEqual({ seq: 30, cursor: 'c30' });
  });
});
