import { describe, expect, test } from 'vitest';
import { EventsRate } from './events-rate.ts';

describe("the project's message rate, as hosted's rate counter averages it", () => {
  test('averages per second over the ticks so far, then over the last 12; triggers at the limit and holds until under it', () => {
    const rate = new EventsRate({ maxEventsPerSecond: 100, tickMs: 5_000 });
    rate.add(499);
    expect(rate.tick()).toBeCloseTo(99.8);
    expect(rate.triggered).toBe(false);
    rate.add(501);
    expect(rate.tick()).toBe(100);
    expect(rate.triggered).toBe(true);
    for (let tick = 0; tick < 8; tick++) rate.tick();
    // 1,000 over 11 ticks of 5 s.
    expect(rate.tick()).toBeCloseTo(1_000 / 55);
    expect(rate.triggered).toBe(false);
    rate.tick();
    rate.tick();
    // The burst has left the window of 12 ticks.
    expect(rate.tick()).toBe(0);
  });

  test('after an idle spell (60 ticks without a message) the window starts afresh, as a stopped counter does', () => {
    const rate = new EventsRate({ maxEventsPerSecond: 100, tickMs: 5_000 });
    for (let tick = 0; tick < 60; tick++) rate.tick();
    rate.add(500);
    // Averaged over this one tick, not over a window of 11 zeros and this.
    expect(rate.tick()).toBe(100);
    expect(rate.triggered).toBe(true);
  });
});
