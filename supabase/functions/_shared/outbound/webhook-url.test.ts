import { describe, expect, it } from 'vitest';
import { parseWebhookUrl } from './webhook-url.ts';

const STRICT = { allowLoopbackHttp: false };
const reasonOf = (raw: string, options = STRICT) => {
  const check = parseWebhookUrl(raw, options);
  return check.ok ? null : check.reason;
};

describe('parseWebhookUrl', () => {
  it.each([
    'https://hooks.example.com/tasklane',
    'https://hooks.example.com:8443/tasklane?token=abc&x=1',
    'https://example.com.',
    'https://93.184.216.34/hook',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/hook',
    'https://xn--bcher-kva.example/hook',
  ])('accepts %s', (raw) => {
    const check = parseWebhookUrl(raw, STRICT);
    expect(check.ok && check.url.href).toBe(new URL(raw).href);
  });

  it.each([
    ['https://2130706433/', '127.0.0.1'],
    ['https://0x7f000001/', '127.0.0.1'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://127.1/', '127.0.0.1'],
    ['https://0/', '0.0.0.0'],
    ['https://%31%32%37.0.0.1/', '127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
  ])('sees %s as WHATWG URL rewrites it, %s, and refuses it', (raw, hostname) => {
    expect(new URL(raw).hostname).toBe(hostname);
    expect(reasonOf(raw)).toMatch(/^points at an address that is not public \(/);
  });

  it.each([
    ['http://example.com/', 'must use https'],
    ['ftp://example.com/', 'must use https'],
    ['https://user@example.com/', 'must not contain a user name or password'],
    ['https://:pw@example.com/', 'must not contain a user name or password'],
    ['https://example.com/#top', 'must not contain a fragment'],
    ['https://example.com/#', 'must not contain a fragment'],
    ['https://10.0.0.1/', 'points at an address that is not public (10.0.0.0/8)'],
    ['https://[::1]/', 'points at an address that is not public (::1/128)'],
    ['https://intranet/', 'must use a fully qualified domain name'],
    ['https://db.internal/', 'points at a name that only exists inside a private network'],
    ['https://exa mple.com/', 'must not contain spaces, control characters or backslashes'],
    ['https://example.com/\t', 'must not contain spaces, control characters or backslashes'],
    ['https://[fe80::1%25eth0]/', 'is not a valid URL'],
    ['https://', 'is not a valid URL'],
    [`https://example.com/${'a'.repeat(2030)}`, 'must be at most 2048 characters'],
  ])('refuses %j: %s', (raw, reason) => {
    expect(reasonOf(raw)).toBe(reason);
  });

  it('takes plain http to loopback only with the flag, for the local stand-in', () => {
    const allowed = { allowLoopbackHttp: true };
    for (const raw of [
      'http://127.0.0.1:54321/hook',
      'http://localhost:8080/',
      'http://[::1]/',
      'https://localhost/',
    ])
      expect([raw, reasonOf(raw, allowed)]).toEqual([raw, null]);
    expect(reasonOf('http://127.0.0.1:54321/hook')).toBe('must use https');
    expect(reasonOf('http://example.com/', allowed)).toBe('must use https');
    expect(reasonOf('http://10.0.0.1/', allowed)).toBe('must use https');
    expect(reasonOf('https://10.0.0.1/', allowed)).toBe(
      'points at an address that is not public (10.0.0.0/8)',
    );
    expect(reasonOf('https://app.localhost/', allowed)).toBe(
      'points at a name that only exists inside a private network',
    );
  });
});
