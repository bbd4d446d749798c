/**
 * Which IP addresses a webhook may reach: only public unicast ones. Private, loopback, link-local (with the
 * cloud metadata address), CGNAT, multicast, documentation and reserved ranges are refused, for IPv4, IPv6
 * and IPv6 forms that carry an IPv4 address. Addresses are parsed here rather than trusted to a library, and
 * anything that does not parse as a plain address (a zone id, an octal or shortened IPv4) is refused.
 */

import { parseIPv4, parseIPv6 } from './ip-address.ts';

interface Range {
  cidr: string;
  base: bigint;
  prefix: number;
}

const IPV4_BITS = 32;
const IPV6_BITS = 128;

const IPV4_FORBIDDEN = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map((cidr) => rangeOf(cidr, parseIPv4));

// Checked in order, after the forms that embed an IPv4 address.
const IPV6_FORBIDDEN = [
  '::/128',
  '::1/128',
  '::/96', // IPv4-compatible, deprecated: no receiver has one
  '64:ff9b:1::/48', // NAT64 for local use
  '100::/64',
  '2001:db8::/32',
  '2001::/23',
  '2002::/16', // 6to4 reaches any IPv4 address through a relay
  '3fff::/20',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map((cidr) => rangeOf(cidr, parseIPv6));

// Only 2000::/3 is global unicast; the ranges above name the parts of the rest a reader would look for.
const IPV6_GLOBAL_UNICAST = rangeOf('2000::/3', parseIPv6);

// Forms whose last 32 bits are the IPv4 address actually reached.
const IPV6_EMBEDDING_IPV4 = ['::ffff:0:0/96', '64:ff9b::/96'].map((cidr) => rangeOf(cidr, parseIPv6));

const LOOPBACK = [rangeOf('127.0.0.0/8', parseIPv4)];
const IPV6_LOOPBACK = rangeOf('::1/128', parseIPv6);

/** The forbidden range `ip` is in (e.g. `10.0.0.0/8`), or null when it is a public address. */
export function forbiddenRangeOf(ip: string): string | null {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return findRange(IPV4_FORBIDDEN, v4, IPV4_BITS)?.cidr ?? null;
  const v6 = parseIPv6(ip);
  if (v6 === null) return 'not an IP address';
  return forbiddenIPv6RangeOf(v6);
}

export function isPublicAddress(ip: string): boolean {
  return forbiddenRangeOf(ip) === null;
}

/** 127.0.0.0/8 or ::1, the only addresses the local stand-in may reach over plain http. */
export function isLoopbackAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return findRange(LOOPBACK, v4, IPV4_BITS) !== undefined;
  const v6 = parseIPv6(ip);
  return v6 !== null && inRange(IPV6_LOOPBACK, v6, IPV6_BITS);
}

function forbiddenIPv6RangeOf(v6: bigint): string | null {
  const embedding = findRange(IPV6_EMBEDDING_IPV4, v6, IPV6_BITS);
  if (embedding) {
    const embedded = findRange(IPV4_FORBIDDEN, v6 & 0xffff_ffffn, IPV4_BITS);
    return embedded ? `${embedding.cidr} holding ${embedded.cidr}` : null;
  }
  const forbidden = findRange(IPV6_FORBIDDEN, v6, IPV6_BITS);
  if (forbidden) return forbidden.cidr;
  return inRange(IPV6_GLOBAL_UNICAST, v6, IPV6_BITS) ? null : 'outside 2000::/3 (global unicast)';
}

function findRange(ranges: readonly Range[], address: bigint, bits: number): Range | undefined {
  return ranges.find((range) => inRange(range, address, bits));
}

function inRange(range: Range, address: bigint, bits: number): boolean {
  const hostBits = BigInt(bits - range.prefix);
  return address >> hostBits === range.base >> hostBits;
}

function rangeOf(cidr: string, parse: (ip: string) => bigint | null): Range {
  const [address = '', prefix = ''] = cidr.split('/');
  const base = parse(address);
  if (base === null) throw new Error(`Bad range ${cidr}`);
  return { cidr, base, prefix: Number(prefix) };
}
