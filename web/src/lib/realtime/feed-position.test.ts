import { describe, expect, test } from 'vitest';
import { stepFor } from './feed-position.ts';
import type { LiveChange, LiveEvent } from './live-event.ts';

const change = (seq: number, cursor: string | null = `c${seq}`): LiveChange => ({
  kind: 'change',
  seq,
  cursor,
  type: 'task.updated',
  project_id: null,
  task_id: null,
  resource_id: null,
  version: null,
  actor_id: null,
  fields: {},
  omitted: [],
});
const bulk = (from: number, to: number): LiveEvent => ({
  kind: 'bulk',
  seq_from: from,
  seq_to: to,
  cursor: `c${to}`,
  types: [],
  project_ids: [],
});

describe('stepFor', () => {
  test('the first event starts the position', () => {
    expect(stepFor(null, change(12))).toEqual({ kind: 'apply', position: { seq: 12, cursor: 'c12' } });
  });

  test('the next event applies and moves the position', () => {
    expect(stepFor({ seq: 4, cursor: 'c4' }, change(5))).toEqual({
      kind: 'apply',
      position: { seq: 5, cursor: 'c5' },
    });
  });

  test('an event already applied is skipped', () => {
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(5))).toEqual({ kind: 'skip' });
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(3))).toEqual({ kind: 'skip' });
  });

  test('an event after a missing one is a gap', () => {
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(7))).toEqual({ kind: 'gap' });
  });

  test('a bulk message covers its whole range', () => {
    expect(stepFor({ seq: 5, cursor: 'c5' }, bulk(6, 30))).toEqual({
      kind: 'apply',
      position: { seq: 30, cursor: 'c30' },
    });
    expect(stepFor({ seq: 5, cursor: 'c5' }, bulk(8, 30))).toEqual({ kind: 'gap' });
  });

  test('an event without a cursor applies but leaves the position', () => {
    expect(stepFor({ seq: 5, cursor: 'c5' }, change(6, null))).toEqual({
      kind: 'apply',
      position: { seq: 5, cursor: 'c5' },
    });
  });
});
