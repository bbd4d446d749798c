import { expect, test } from 'vitest';
import { createReopenDelay } from './reopen-delay.ts';

test('joins again after 1 s, doubling while joins are short-lived, at most a minute; a steady join starts over', () => {
  let time = 0;
  const delay = createReopenDelay(() => time);
  const closes = (joinedFor: number) => {
    delay.joined();
    time += joinedFor;
    return delay.next();
  };
  expect([closes(500), closes(500), closes(500), closes(500)]).toEqual([1_000, 2_000, 4_000, 8_000]);
  for (let close = 0; close < 5; close++) closes(500);
  expect(closes(500)).toBe(60_000);
  expect(closes(60_000)).toBe(1_000);
  // Closed again before a join: the pause keeps growing.
  expect(delay.next()).toBe(2_000);
});
