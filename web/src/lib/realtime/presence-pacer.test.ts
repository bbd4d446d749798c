import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPacer, PRESENCE_INTERVAL_MS } from './presence-pacer.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createPacer', () => {
  test('sends at once, then at most once per 7 s, the latest state after the wait', () => {
    let place = 'board';
    const sent: string[] = [];
    const pacer = createPacer(() => sent.push(place));
    pacer.request();
    expect(sent).toEqual(['board']);
    for (const next of ['WEB-1', 'board', 'WEB-2', 'board', 'WEB-3']) {
      vi.advanceTimersByTime(400);
      place = next;
      pacer.request();
    }
    expect(sent).toEqual(['board']);
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS - 5 * 400 - 1);
    expect(sent).toEqual(['board']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['board', 'WEB-3']);
    // Long after, a change is told at once again.
    vi.advanceTimersByTime(60_000);
    place = 'board';
    pacer.request();
    expect(sent).toEqual(['board', 'WEB-3', 'board']);
  });

  test('a new channel sends at once; a stopped pacer sends nothing more', () => {
    const send = vi.fn();
    const pacer = createPacer(send);
    pacer.request();
    pacer.request();
    pacer.reset();
    pacer.request();
    expect(send).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    pacer.request();
    pacer.stop();
    vi.advanceTimersByTime(60_000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  test('whatever the changes, sends are 7 s apart or more, and one follows the last change', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 15_000 }), { minLength: 1, maxLength: 30 }), (gaps) => {
        vi.setSystemTime(0);
        const sentAt: number[] = [];
        const pacer = createPacer(() => sentAt.push(Date.now()));
        for (const gap of gaps) {
          vi.advanceTimersByTime(gap);
          pacer.request();
        }
        const lastChange = Date.now();
        vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
        for (let index = 1; index < sentAt.length; index += 1) {
          expect((sentAt[index] ?? 0) - (sentAt[index - 1] ?? 0)).toBeGreaterThanOrEqual(
            PRESENCE_INTERVAL_MS,
          );
        }
        expect(sentAt.at(-1)).toBeGreaterThanOrEqual(lastChange);
        pacer.stop();
      }),
    );
  });
});
