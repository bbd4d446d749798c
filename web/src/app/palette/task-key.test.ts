import { describe, expect, it } from 'vitest';
import { parseTaskKey } from './task-key.ts';

describe('parseTaskKey', () => {
  it('reads a key whatever its case and the spaces around it', () => {
    expect(parseTaskKey('WEB-12')).toBe('WEB-12');
    expect(parseTaskKey(' web-7 ')).toBe('WEB-7');
    expect(parseTaskKey('Ops2-100')).toBe('OPS2-100');
  });

  it('is null for anything else: words, a number 0, a one-letter project', () => {
    expect(parseTaskKey('fix login')).toBeNull();
    expect(parseTaskKey('WEB-0')).toBeNull();
    expect(parseTaskKey('W-1')).toBeNull();
    expect(parseTaskKey('WEB-')).toBeNull();
  });
});
