import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect-target.ts';

describe('safeRedirectTarget', () => {
  it('keeps a path of this app with its query and fragment', () => {
    expect(safeRedirectTarget('/account')).toBe('/account');
    expect(safeRedirectTarget('/w/acme/p/ENG?assignee=me#t-42')).toBe('/w/acme/p/ENG?assignee=me#t-42');
  });

  it('never leads to another origin', () => {
    for (const attempt of [
      'https://evil.example/',
      '//evil.example/account',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      'evil.example',
      ' /account',
    ]) {
      expect(safeRedirectTarget(attempt), attempt).toBe('/');
    }
  });

  it('falls back home for nothing, non-strings and the sign-in steps themselves', () => {
    expect(safeRedirectTarget(undefined)).toBe('/');
    expect(safeRedirectTarget(42)).toBe('/');
    expect(safeRedirectTarget('')).toBe('/');
    expect(safeRedirectTarget('/sign-in?redirect=/account')).toBe('/');
    expect(safeRedirectTarget('/mfa')).toBe('/');
  });

  it('normalises dot segments before judging the path', () => {
    expect(safeRedirectTarget('/a/../account')).toBe('/account');
    expect(safeRedirectTarget('/x/../sign-in')).toBe('/');
  });
});
