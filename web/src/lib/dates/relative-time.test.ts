import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

describe('relativeTime', () => {
  it('says how long ago, coarser the older it is', () => {
    expect(relativeTime(ago(20), now)).toBe('just now');
    expect(relativeTime(ago(5 * 60), now)).toBe('5 min ago');
    expect(relativeTime(ago(3 * 3600), now)).toBe('3 h ago');
    expect(relativeTime(ago(2 * 86_400), now)).toBe('2 d ago');
    expect(relativeTime('2026-10-01T12:00:00Z', now)).toBe('Oct 1');
  });
});
