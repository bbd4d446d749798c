import { describe, expect, test } from 'vitest';
import { isRedirectAllowed, redirectTarget } from './redirects.ts';

const settings = {
  siteUrl: 'http://localhost:5173',
  additionalRedirectUrls: ['http://127.0.0.1:5173', 'https://*.example.com/**', 'https://app.example.org'],
};

describe('redirect_to, as GoTrue allows it', () => {
  test.each([
    ['http://localhost:5173/reset-password', true],
    ['http://localhost:4000/elsewhere', true], // any port on localhost (RFC 8252)
    ['http://127.0.0.1:5173/reset-password', true],
    ['http://[::1]:9999/', true],
    ['https://localhost:5173/', false], // another scheme
    ['https://preview.example.com/reset?x=1', true],
    ['https://a.b.example.com/reset', false], // `*` stops at dots
    ['https://app.example.org', true],
    ['https://app.example.org/path', false],
    ['https://evil.example.net/', false],
    ['http://2130706433/', false], // a decimal IP
    ['http://10.0.0.1/', false],
    ['not a url', false],
  ])('%s → %s', (address, allowed) => {
    expect(isRedirectAllowed(settings, address)).toBe(allowed);
  });

  test('falls back to the site URL', () => {
    expect(redirectTarget(settings, 'https://evil.example.net/')).toBe('http://localhost:5173');
    expect(redirectTarget(settings, null)).toBe('http://localhost:5173');
    expect(redirectTarget(settings, 'http://localhost:5173/x')).toBe('http://localhost:5173/x');
  });
});
