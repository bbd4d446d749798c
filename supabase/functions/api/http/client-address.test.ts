import { describe, expect, it } from 'vitest';
import { canonicalIp, clientAddressOf, ipBucketOf } from './client-address.ts';

describe('the client address', () => {
  // The client writes what it likes in front; the gateway appends the address it saw last.
  it('is the last X-Forwarded-For entry, the one the gateway appended', () => {
    expect(clientAddressOf('10.0.0.1, 203.0.113.7', '127.0.0.1')).toBe('203.0.113.7');
    expect(clientAddressOf('203.0.113.9,10.0.0.1 , 2001:DB8::1 ', undefined)).toBe('2001:db8::1');
    expect(clientAddressOf('203.0.113.7', undefined)).toBe('203.0.113.7');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['not an address at the end', '203.0.113.7, unknown'],
    ['an address with a port', '203.0.113.7:443'],
    ['ending in a comma', '203.0.113.7,'],
  ])('is the connection address when X-Forwarded-For is %s', (_name, forwardedFor) => {
    expect(clientAddressOf(forwardedFor, '198.51.100.4')).toBe('198.51.100.4');
  });

  it.each([
    [1, '10.0.0.1, 203.0.113.7', '203.0.113.7'],
    [2, '10.0.0.1, 203.0.113.7, 198.51.100.1', '203.0.113.7'],
    [2, '10.0.0.1, 192.0.2.5, 203.0.113.7, 198.51.100.1', '203.0.113.7'],
    [3, '10.0.0.1, 203.0.113.7, 198.51.100.2, 198.51.100.1', '203.0.113.7'],
    // Fewer entries than trusted proxies: every entry is a proxy's, the first one the earliest.
    [2, '203.0.113.7', '203.0.113.7'],
    [3, '203.0.113.7, 198.51.100.1', '203.0.113.7'],
  ])('behind %i trusted proxies, in %j, is %s', (hops, forwardedFor, address) => {
    expect(clientAddressOf(forwardedFor, '192.0.2.200', hops)).toBe(address);
  });

  it('is the connection address behind no trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.7', '192.0.2.200', 0)).toBe('192.0.2.200');
  });

  it('is the connection address when the entry the trusted proxies name is not an address', () => {
    expect(clientAddressOf('unknown, 198.51.100.1', '192.0.2.200', 2)).toBe('192.0.2.200');
  });

  it('is unknown when neither names an address', () => {
    expect(clientAddressOf(undefined, undefined)).toBeUndefined();
    expect(clientAddressOf('nope', 'localhost')).toBeUndefined();
  });

  it.each([
    ['203.0.113.7', 'ip:203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', 'ip:2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', 'ip:2001:db8:1:2::/64'],
    ['2001:db8::1', 'ip:2001:db8:0:0::/64'],
    ['::1', 'ip:0:0:0:0::/64'],
    ['::ffff:c000:201', 'ip:192.0.2.1'],
    [undefined, 'ip:unknown'],
  ])('puts %s in the rate-limit bucket %s', (address, bucket) => {
    expect(ipBucketOf(address)).toBe(bucket);
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
