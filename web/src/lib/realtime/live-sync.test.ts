import { describe, expect, test, vi } from 'vitest';
import type { LiveChange, LiveEvent } from './live-event.ts';
import { createLiveSync, type FeedPage } from './live-sync.ts';

const change = (seq: number, cursor: string | null = `c${seq}`): LiveChange => ({
  kind: 'change',
  seq,
  cursor,
  type: 'task.moved',
  project_id: 'p',
  task_id: `t${seq}`,
  resource_id: `t${seq}`,
  version: 2,
  actor_id: 'u',
  fields: {},
  omitted: [],
});

/** A feed of events 1…last, read in pages of two; cursors are `c<seq>`. */
function feed(last: number) {
  return vi.fn(async (cursor: string): Promise<FeedPage> => {
    const after = Number(cursor.slice(1));
    const events: LiveChange[] = [];
    for (let seq = after + 1; seq <= Math.min(after + 2, last); seq += 1) events.push(change(seq, null));
    const end = events.at(-1)?.seq ?? after;
    return { events, next_cursor: `c${end}`, has_more: end < last };
  });
}

function setup(last: number) {
  const applied: number[] = [];
  const readAfter = feed(last);
  const refreshSince = vi.fn(async () => undefined);
  const sync = createLiveSync({
    apply: (event: LiveEvent) => applied.push(event.kind === 'change' ? event.seq : event.seq_to),
    readAfter,
    refreshSince,
    now: () => 1000,
  });
  return { sync, applied, readAfter, refreshSince };
}

describe('createLiveSync', () => {
  test('the first join, with nothing applied yet, re-reads what was cached before it', async () => {
    const { sync, readAfter, refreshSince } = setup(10);
    await sync.joined();
    expect(refreshSince).toHaveBeenCalledWith(1000);
    expect(readAfter).not.toHaveBeenCalled();
  });

  test('events in order are applied, and move the position', () => {
    const { sync, applied } = setup(10);
    sync.receive(change(4));
    sync.receive(change(5));
    sync.receive(change(5));
    expect(applied).toEqual([4, 5]);
    expect(sync.position()).toEqual({ seq: 5, cursor: 'c5' });
  });

  test('a rejoin reads the feed from the last event applied to its end, page by page', async () => {
    const { sync, applied, readAfter } = setup(9);
    sync.receive(change(4));
    await sync.joined();
    expect(readAfter.mock.calls.map(([cursor]) => cursor)).toEqual(['c4', 'c6', 'c8']);
    expect(applied).toEqual([4, 5, 6, 7, 8, 9]);
    expect(sync.position()).toEqual({ seq: 9, cursor: 'c9' });
    // Caught up: the broadcast of an event the feed gave already is not applied again.
    sync.receive(change(9));
    expect(applied).toEqual([4, 5, 6, 7, 8, 9]);
  });

  test('an event after a missed one is applied, then the feed fills the gap', async () => {
    const { sync, applied, readAfter } = setup(7);
    sync.receive(change(4));
    sync.receive(change(7));
    await vi.waitFor(() => expect(sync.position()).toEqual({ seq: 7, cursor: 'c7' }));
    expect(readAfter).toHaveBeenCalledWith('c4');
    expect(applied).toEqual([4, 7, 5, 6, 7]);
  });

  test('a failed read of the feed falls back to reading the cache again', async () => {
    const { sync, refreshSince, readAfter } = setup(7);
    readAfter.mockRejectedValueOnce(new Error('offline'));
    sync.receive(change(4));
    await sync.joined();
    expect(refreshSince).toHaveBeenCalledOnce();
  });

  test('after stop nothing is applied', async () => {
    const { sync, applied, readAfter } = setup(7);
    sync.receive(change(4));
    sync.stop();
    sync.receive(change(5));
    await sync.joined();
    expect(applied).toEqual([4]);
    expect(readAfter).not.toHaveBeenCalled();
  });
});
