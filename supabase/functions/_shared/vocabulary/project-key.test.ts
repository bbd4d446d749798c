import { describe, expect, it } from 'vitest';
import { isProjectKey, suggestProjectKey } from './project-key.ts';

describe('suggestProjectKey', () => {
  it('takes the first three letters of a one-word name', () => {
    expect(suggestProjectKey('Engineering')).toBe('ENG');
    expect(suggestProjectKey('ops')).toBe('OPS');
  });

  it('takes the initials of a name of several words', () => {
    expect(suggestProjectKey('Web platform')).toBe('WP');
    expect(suggestProjectKey('Mobile app for iOS 2')).toBe('MAFI2');
  });

  it('drops accents and signs, and starts with a letter', () => {
    expect(suggestProjectKey('Équipe café')).toBe('EC');
    expect(suggestProjectKey('2025 roadmap')).toBe('ROA');
    expect(suggestProjectKey('  Q3 -- launch!')).toBe('QL');
  });

  it('suggests nothing when no key can be made, and only keys the API accepts otherwise', () => {
    expect(suggestProjectKey('')).toBe('');
    expect(suggestProjectKey('42')).toBe('');
    expect(suggestProjectKey('X')).toBe('');
    for (const name of ['Engineering', 'Web platform', 'a b c d e f g h i j k l', 'Xy', 'Z 9']) {
      expect(isProjectKey(suggestProjectKey(name))).toBe(true);
    }
  });
});
