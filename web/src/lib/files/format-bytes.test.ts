import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes.ts';

describe('formatBytes', () => {
  it('says bytes, KB or MB', () => {
    expect(formatBytes(312)).toBe('312 bytes');
    expect(formatBytes(840 * 1024)).toBe('840 KB');
    expect(formatBytes(1.25 * 1024 * 1024)).toBe('1.3 MB');
  });

  it('writes a whole number of MB without a decimal', () => {
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MB');
  });
});
