import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  countPresenceMessage,
  NO_PRESENCE_YET,
  type ClientPresenceLimit,
  type PresenceWindow,
} from './client-presence-limit.ts';
import { HOSTED_REALTIME_SETTINGS } from './settings.ts';

const HOSTED: ClientPresenceLimit = HOSTED_REALTIME_SETTINGS.clientPresenceLimit;

/** Which of the messages sent at these times (ms) the limit lets through, the channel shut at the first refusal. */
function passed(times: readonly number[], limit: ClientPresenceLimit = HOSTED): boolean[] {
  let window: PresenceWindow = NO_PRESENCE_YET;
  const answers: boolean[] = [];
  for (const time of times) {
    const next = countPresenceMessage(window, limit, time);
    answers.push(next !== null);
    if (!next) break;
    window = next;
  }
  return answers;
}

describe('the client presence limit', () => {
  test('is hosted’s: 5 messages in a window of 30 s', () => {
    expect(HOSTED).toEqual({ maxCalls: 5, windowMs: 30_000 });
  });

  test('a sixth message inside the window that the first one started is refused', () => {
    expect(passed([0, 1, 2, 3, 4, 29_999])).toEqual([true, true, true, true, true, false]);
    expect(passed([0, 1, 2, 3, 4, 30_000])).toEqual([true, true, true, true, true, false]);
  });

  test('after the window, the next message starts a new one', () => {
    expect(passed([0, 1, 2, 3, 4, 30_001, 30_002, 30_003, 30_004, 30_005])).toEqual(Array(10).fill(true));
  });

  // The web app's pacing (lib/realtime/presence-pacer.ts): one message at most every 7 s.
  test('messages at least 7 s apart are never refused, whatever their times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 7_000, max: 60_000 }), { maxLength: 40 }), (gaps) => {
        const times = gaps.reduce<number[]>((sum, gap) => [...sum, (sum.at(-1) ?? 0) + gap], [0]);
        expect(passed(times).every(Boolean)).toBe(true);
      }),
    );
  });

  test('no window ever lets more than maxCalls through', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 60_000 }),
        (gaps, maxCalls, windowMs) => {
          const limit = { maxCalls, windowMs };
          const times = gaps.reduce<number[]>((sum, gap) => [...sum, (sum.at(-1) ?? 0) + gap], []);
          const through = times.slice(0, passed(times, limit).filter(Boolean).length);
          // Windows start at a message that came after the previous window ended.
          let start = Number.NEGATIVE_INFINITY;
          let inWindow = 0;
          for (const time of through) {
            if (time > start + windowMs) [start, inWindow] = [time, 0];
            inWindow += 1;
            expect(inWindow).toBeLessThanOrEqual(maxCalls);
          }
        },
      ),
    );
  });
});
