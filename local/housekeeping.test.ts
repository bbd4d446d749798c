import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { startHousekeeping, type HousekeepingDatabase } from './housekeeping.ts';

const HOUR = 60 * 60 * 1000;

/** A database that answers each run with the next of `answers` (the last one again once they run out). */
function fakeDatabase(answers: (() => Promise<{ rows: unknown[] }>)[]) {
  const statements: string[] = [];
  const db: HousekeepingDatabase = {
    query: (text) => {
      statements.push(text);
      const answer = answers[Math.min(statements.length, answers.length) - 1];
      if (!answer) throw new Error('no answer');
      return answer();
    },
  };
  return { db, statements };
}

const deleted =
  (events: number, keys = 0, counters = 0) =>
  () =>
    Promise.resolve({
      rows: [
        { kind: 'events', deleted: String(events) },
        { kind: 'idempotency_keys', deleted: String(keys) },
        { kind: 'rate_limit_counters', deleted: String(counters) },
      ],
    });

describe('startHousekeeping', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('deletes expired rows at once, then every hour, and says what it deleted', async () => {
    const { db, statements } = fakeDatabase([deleted(3, 0, 2), deleted(0), deleted(1)]);
    const log = vi.fn();
    const housekeeping = startHousekeeping({ db, log });
    await vi.advanceTimersByTimeAsync(0);
    expect(statements).toEqual(['select kind, deleted from private.delete_expired_rows()']);
    expect(log).toHaveBeenCalledExactlyOnceWith('deleted expired rows: 3 events, 2 rate_limit_counters');

    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(statements).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(statements).toHaveLength(2);
    expect(log).toHaveBeenCalledTimes(1); // nothing deleted, nothing said

    await vi.advanceTimersByTimeAsync(HOUR);
    expect(statements).toHaveLength(3);
    expect(log).toHaveBeenLastCalledWith('deleted expired rows: 1 events');
    await housekeeping.stop();
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(statements).toHaveLength(3);
  });

  test('a failed run is logged and the next one runs as planned', async () => {
    const { db, statements } = fakeDatabase([
      () => Promise.reject(new Error('connection refused')),
      deleted(2),
    ]);
    const log = vi.fn();
    const housekeeping = startHousekeeping({ db, log, intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toHaveBeenCalledExactlyOnceWith('could not delete expired rows: connection refused');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(statements).toHaveLength(2);
    expect(log).toHaveBeenLastCalledWith('deleted expired rows: 2 events');
    await housekeeping.stop();
  });

  test('runs never overlap, and stop waits for the run in progress', async () => {
    let finish: (() => void) | undefined;
    const slow = () =>
      new Promise<{ rows: unknown[] }>((resolve) => {
        finish = () => resolve({ rows: [] });
      });
    const { db, statements } = fakeDatabase([slow]);
    const housekeeping = startHousekeeping({ db, log: vi.fn(), intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(3_500);
    expect(statements).toHaveLength(1);

    let stopped = false;
    const stopping = housekeeping.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish?.();
    await stopping;
    expect(stopped).toBe(true);
  });
});
