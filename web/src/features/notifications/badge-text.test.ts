import { describe, expect, test } from 'vitest';
import { badgeText } from './badge-text.ts';

describe('badgeText', () => {
  test('hidden at 0, the number up to 99, then 99+', () => {
    expect(badgeText(undefined)).toBeUndefined();
    expect(badgeText({ unread: 0, more: false })).toBeUndefined();
    expect(badgeText({ unread: 7, more: false })).toBe('7');
    expect(badgeText({ unread: 99, more: false })).toBe('99');
    expect(badgeText({ unread: 100, more: false })).toBe('99+');
    expect(badgeText({ unread: 1000, more: true })).toBe('99+');
  });
});
