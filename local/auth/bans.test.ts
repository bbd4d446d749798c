import { describe, expect, it } from 'vitest';
import { parseBanDuration } from './bans.ts';

describe('parseBanDuration', () => {
  it('reads Go durations as milliseconds', () => {
    expect(parseBanDuration('24h')).toBe(24 * 3_600_000);
    expect(parseBanDuration('1h30m')).toBe(5_400_000);
    expect(parseBanDuration('1.5s')).toBe(1500);
    expect(parseBanDuration('250ms')).toBe(250);
    expect(parseBanDuration('-1h')).toBe(-3_600_000);
  });

  it('lifts a ban for "none" and zero, and leaves bans alone when absent', () => {
    expect(parseBanDuration('none')).toBeNull();
    expect(parseBanDuration('0')).toBeNull();
    expect(parseBanDuration('0s')).toBeNull();
    expect(parseBanDuration(undefined)).toBeUndefined();
    expect(parseBanDuration('')).toBeUndefined();
  });

  it('refuses what Go would refuse, with GoTrue validation_failed error', () => {
    for (const text of ['forever', '24', 'h', '1d', '1h 30m']) {
      expect(() => parseBanDuration(text)).toThrow(
        expect.objectContaining({ status: 400, code: 'validation_failed' }),
      );
    }
  });
});
