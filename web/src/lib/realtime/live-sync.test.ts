import { describe, expect, test, vi } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import type { LiveChange, LiveEvent } from './live-event.ts';
import type { BulkMessage, ChangeMessage } from './live-message.ts';
import { createLiveSync, type FeedPage } from './live-sync.ts';

const message = (seq: number, version = 2): ChangeMessage => ({
  kind: 'change',
  seq,
  cursor: `c${seq}`,
  previous_cursor: `c${seq - 1}`,
  type: 'task.moved',
  project_id: 'p',
  task_id: `t${seq}`,
  resource_id: `t${seq}`,
  version,
  actor_id: 'u',
  changed: ['position', 'status'],
});
const bulk = (from: number, to: number): BulkMessage => ({
  kind: 'bulk',
  seq_from: from,
  seq_to: to,
  cursor: `c${to}`,
  previous_cursor: `c${from - 1}`,
  types: ['task.updated'],
  project_ids: ['p'],
});
const event = (seq: number): LiveChange => ({
  kind: 'change',
  seq,
  type: 'task.moved',
  project_id: 'p',
  task_id: `t${seq}`,
  resource_id: `t${seq}`,
  version: 2,
  actor_id: 'u',
  fields: { status: 'done' },
});

/** A feed of events 1…`feed.last` (it grows as a test commits more), read in pages of two. */
function setup(last: number) {
  const feed = { last };
  const applied: (number | string)[] = [];
  const readAfter = vi.fn(async (cursor: string): Promise<FeedPage> => {
    const after = Number(cursor.slice(1));
    const events: LiveChange[] = [];
    for (let seq = after + 1; seq <= Math.min(after + 2, feed.last); seq += 1) events.push(event(seq));
    const end = events.at(-1)?.seq ?? after;
    return { events, next_cursor: `c${end}`, has_more: end < feed.last };
  });
  const refreshSince = vi.fn(async () => undefined);
  const refused = vi.fn();
  const held = new Set<number>();
  const sync = createLiveSync({
    apply: (applying: LiveEvent) =>
      applied.push(applying.kind === 'change' ? applying.seq : `bulk ${applying.seq_to}`),
    readAfter,
    refreshSince,
    holds: (candidate) => held.has(candidate.seq),
    refused,
    now: () => 1000,
  });
  const reads = () => readAfter.mock.calls.map(([cursor]) => cursor);
  return { sync, feed, applied, readAfter, reads, refreshSince, refused, held };
}

describe('createLiveSync', () => {
  test('the first join, with nothing applied yet, re-reads what was cached before it', async () => {
    const { sync, readAfter, refreshSince } = setup(10);
    await sync.joined();
    expect(refreshSince).toHaveBeenCalledWith(1000);
    expect(readAfter).not.toHaveBeenCalled();
  });

  test('a message is never applied: the feed is read from just before it, and its events applied', async () => {
    const { sync, applied, reads } = setup(5);
    sync.receive(message(5));
    await vi.waitFor(() => expect(sync.position()).toEqual({ seq: 5, cursor: 'c5' }));
    expect(reads()).toEqual(['c4']);
    expect(applied).toEqual([5]);
  });

  test('a burst of messages is one read, and one more only for what the read may have missed', async () => {
    const { sync, feed, applied, reads } = setup(5);
    sync.receive(message(5)); // the read starts, the feed at 5
    feed.last = 9;
    for (const seq of [6, 7, 8, 9]) sync.receive(message(seq));
    await vi.waitFor(() => expect(sync.position()).toEqual({ seq: 9, cursor: 'c9' }));
    // The first read ended at 5; the second reads on to 9, a page of two at a time.
    expect(reads()).toEqual(['c4', 'c5', 'c7']);
    expect(applied).toEqual([5, 6, 7, 8, 9]);
  });

  test('messages whose events the read in flight gets anyway cost no further read', async () => {
    const { sync, applied, reads } = setup(9);
    for (const seq of [5, 6, 7, 8, 9]) sync.receive(message(seq));
    await vi.waitFor(() => expect(sync.position()).toEqual({ seq: 9, cursor: 'c9' }));
    expect(reads()).toEqual(['c4', 'c6', 'c8']);
    expect(applied).toEqual([5, 6, 7, 8, 9]);
    // Caught up: the messages of events the feed gave already read nothing.
    sync.receive(message(9));
    sync.receive(message(8));
    expect(reads()).toHaveLength(3);
  });

  test("the next message about a resource the cache holds at its version (this tab's own change) reads nothing", async () => {
    const { sync, applied, readAfter, held } = setup(8);
    held.add(5);
    held.add(6);
    sync.receive(message(5));
    sync.receive(message(6));
    expect(sync.position()).toEqual({ seq: 6, cursor: 'c6' });
    expect(readAfter).not.toHaveBeenCalled();
    expect(applied).toEqual([]);
    // Held, but after a missed event: the feed is read.
    held.add(8);
    sync.receive(message(8));
    await vi.waitFor(() => expect(sync.position()?.seq).toBe(8));
    expect(readAfter).toHaveBeenCalledWith('c6');
    expect(applied).toEqual([7, 8]);
  });

  test('the next bulk message is applied as it is (it names what to read again); one after a gap reads', async () => {
    const { sync, applied, reads } = setup(40);
    sync.receive(bulk(5, 30));
    expect(applied).toEqual(['bulk 30']);
    expect(sync.position()).toEqual({ seq: 30, cursor: 'c30' });
    sync.receive(bulk(32, 33));
    await vi.waitFor(() => expect(sync.position()?.seq).toBe(40));
    expect(reads()[0]).toBe('c30');
    expect(applied.slice(1, 3)).toEqual([31, 32]);
  });

  test('a rejoin reads the feed from the last event applied to its end', async () => {
    const { sync, applied, reads, held, feed } = setup(4);
    held.add(4);
    sync.receive(message(4));
    feed.last = 9;
    await sync.joined();
    expect(reads()).toEqual(['c4', 'c6', 'c8']);
    expect(applied).toEqual([5, 6, 7, 8, 9]);
    expect(sync.position()).toEqual({ seq: 9, cursor: 'c9' });
  });

  test('a join while a read is in flight (replication now ready) reads again after it: nothing committed meanwhile is missed', async () => {
    const { sync, applied, reads, held, feed } = setup(4);
    held.add(4);
    sync.receive(message(4));
    feed.last = 5;
    const first = sync.joined(); // its read has seen the feed up to 5 already
    feed.last = 7; // committed before the channel could carry it
    const again = sync.joined();
    await Promise.all([first, again]);
    expect(reads()).toEqual(['c4', 'c5']);
    expect(applied).toEqual([5, 6, 7]);
    expect(sync.position()).toEqual({ seq: 7, cursor: 'c7' });
  });

  test.each([
    [404, 'not_found'],
    [403, 'mfa_required'],
  ])(
    'a read the API refuses (%i %s) tells the app, and reads nothing more until the channel joins again',
    async (status, code) => {
      const { sync, readAfter, refused, refreshSince, applied } = setup(9);
      readAfter.mockRejectedValueOnce(
        new ApiError({ status, code, detail: 'No.', requestId: null, errors: [] }),
      );
      sync.receive(message(5));
      await vi.waitFor(() => expect(refused).toHaveBeenCalledOnce());
      sync.receive(message(6));
      sync.receive(message(7));
      expect(readAfter).toHaveBeenCalledOnce();
      expect(refreshSince).not.toHaveBeenCalled();
      expect(applied).toEqual([]);
      // Let back in (a member again, or a second factor verified), the channel joins and catches up.
      await sync.joined();
      expect(applied).toEqual([5, 6, 7, 8, 9]);
    },
  );

  test('a read that fails otherwise falls back to reading the cache again', async () => {
    const { sync, refreshSince, readAfter, refused } = setup(7);
    readAfter.mockRejectedValueOnce(new Error('offline'));
    sync.receive(message(4));
    await vi.waitFor(() => expect(refreshSince).toHaveBeenCalledOnce());
    expect(refused).not.toHaveBeenCalled();
  });

  test('a message of an event the feed does not have reads once, not forever', async () => {
    const { sync, reads } = setup(6);
    sync.receive(message(9));
    await vi.waitFor(() => expect(reads()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads()).toEqual(['c8']);
  });

  test('after stop nothing is read or applied', async () => {
    const { sync, applied, readAfter } = setup(7);
    sync.stop();
    sync.receive(message(5));
    await sync.joined();
    expect(applied).toEqual([]);
    expect(readAfter).not.toHaveBeenCalled();
  });
});
