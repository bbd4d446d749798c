import { describe, expect, it } from 'vitest';
import { canonicalIp, clientAddressOf } from './client-address.ts';

describe('the client address', () => {
  it('is the first X-Forwarded-For entry when it is an IP address', () => {
    expect(clientAddressOf('203.0.113.7, 10.0.0.1', '127.0.0.1')).toBe('203.0.113.7');
    expect(clientAddressOf(' 2001:DB8::1 ,10.0.0.1', undefined)).toBe('2001:db8::1');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['not an address', 'unknown, 203.0.113.7'],
    ['an address with a port', '203.0.113.7:443'],
  ])('is the connection address when X-Forwarded-For is %s', (_name, forwardedFor) => {
    expect(clientAddressOf(forwardedFor, '198.51.100.4')).toBe('198.51.100.4');
  });

  it('is unknown when neither names an address', () => {
    expect(clientAddressOf(undefined, undefined)).toBeUndefined();
    expect(clientAddressOf('nope', 'localhost')).toBeUndefined();
  });

  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['[::1]', '::1'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
  ])('writes %s canonically', (text, canonical) => {
    expect(canonicalIp(text)).toBe(canonical);
  });

  it.each(['256.1.1.1', '1.2.3', '01.2.3.4', '1.2.3.4.5', 'example.com', '1:2:3', '::g', '', 'fe80::1%eth0'])(
    'refuses %j',
    (text) => {
      expect(canonicalIp(text)).toBeUndefined();
    },
  );
});
