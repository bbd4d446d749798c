/**
 * IP addresses in text, parsed to numbers: strictly, so that what is checked is what is connected to. An
 * address written in a form a resolver or WHATWG URL would not produce (octal, shortened, zone id) does
 * not parse.
 */

const IPV4_PART = /^(0|[1-9][0-9]{0,2})$/;

/** Dotted decimal only, as resolvers and WHATWG URL write it; `0177.0.0.1` or `127.1` are not parsed. */
export function parseIPv4(ip: string): bigint | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!IPV4_PART.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

const IPV6_GROUP = /^[0-9a-f]{1,4}$/;

/** Full RFC 4291 text form, with `::` and a trailing dotted IPv4; brackets allowed, zone ids refused. */
export function parseIPv6(ip: string): bigint | null {
  const text = (ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip).toLowerCase();
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0] ?? '', halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '', true) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** The 16-bit groups of one side of `::`; a dotted IPv4 may end the address only. */
function groupsOf(side: string, endsAddress: boolean): number[] | null {
  if (side === '') return [];
  const texts = side.split(':');
  const last = texts[texts.length - 1] ?? '';
  let groups: number[] = [];
  if (endsAddress && last.includes('.')) {
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    texts.pop();
    groups = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
  }
  if (!texts.every((group) => IPV6_GROUP.test(group))) return null;
  return [...texts.map((group) => parseInt(group, 16)), ...groups];
}
