/**
 * The caller's IP address, for the per-IP rate limit: the entry of `X-Forwarded-For` that the trusted
 * proxies name when it is an IP address, else the address of the connection, which only the runtime
 * knows (see AppDeps.connectionAddress). Each proxy appends the address it was called from, so behind
 * `trustedHops` proxies (TASKLANE_TRUSTED_PROXY_HOPS, 1 by default: Supabase's gateway, and the
 * stand-in's, which appends as it does) the client's address is that many entries from the end; anything
 * before it is what the client wrote, and taking it would let every request pick a bucket of its own.
 * With fewer entries than trusted proxies, every entry is a proxy's and the first is the earliest. IPv6
 * addresses are written in their canonical form, so that one address spelled two ways is still one bucket.
 */
import { DEFAULT_TRUSTED_PROXY_HOPS } from '../../_shared/limits.ts';

const IPV4 =
  /^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$/;
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;
const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

export function clientAddressOf(
  forwardedFor: string | undefined,
  connectionAddress: string | undefined,
  trustedHops: number = DEFAULT_TRUSTED_PROXY_HOPS,
): string | undefined {
  const forwarded = canonicalIp(forwardedEntry(forwardedFor ?? '', trustedHops));
  return forwarded ?? (connectionAddress && canonicalIp(connectionAddress));
}

/** The entry `trustedHops` from the end (the first when there are fewer); none behind no proxy. */
function forwardedEntry(forwardedFor: string, trustedHops: number): string {
  if (trustedHops < 1) return '';
  const entries = forwardedFor.split(',');
  return entries[Math.max(entries.length - trustedHops, 0)]?.trim() ?? '';
}

/**
 * The rate-limit bucket of an address. An IPv6 subscriber holds at least a /64 and may use any address
 * in it, so the /64 is the bucket: one client cannot mint buckets by changing its interface id. An
 * IPv4-mapped address is its IPv4 address; without an address, every request shares one bucket.
 */
export function ipBucketOf(address: string | undefined): string {
  if (address === undefined) return 'ip:unknown';
  if (!address.includes(':')) return `ip:${address}`;
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return `ip:${mapped.slice(1).flatMap(bytesOf).join('.')}`;
  const [head = '', tail] = address.split('::');
  const written = (part: string) => (part === '' ? [] : part.split(':'));
  const groups = [...written(head), '0', '0', '0', '0'];
  // With `::`, the groups before it are the first ones; without, the address has all eight.
  return `ip:${(tail === undefined ? written(head) : groups).slice(0, 4).join(':')}::/64`;
}

function bytesOf(group: string | undefined): number[] {
  const value = Number.parseInt(group ?? '0', 16);
  return [value >> 8, value & 0xff];
}

/** The address in canonical form, or undefined when the text is no IPv4 or IPv6 address. */
export function canonicalIp(text: string): string | undefined {
  if (IPV4.test(text)) return text;
  // The URL parser implements IPv6 parsing and serialization (RFC 5952 form) exactly.
  const unbracketed = text.replace(/^\[(.*)\]$/, '$1');
  if (!unbracketed.includes(':') || !IPV6_CHARACTERS.test(unbracketed)) return undefined;
  if (!URL.canParse(`http://[${unbracketed}]/`)) return undefined;
  return new URL(`http://[${unbracketed}]/`).hostname.slice(1, -1);
}
