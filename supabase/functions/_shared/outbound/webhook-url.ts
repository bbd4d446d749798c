/**
 * The checks a webhook URL passes before anything is resolved: syntax, scheme, no credentials, and a host
 * that is neither a forbidden IP literal nor a name that only means something inside a network. WHATWG URL
 * has already rewritten decimal, octal and hex IPv4 hosts (`2130706433`, `0x7f.1`, `0177.0.0.1`) into dotted
 * form, so the literal check sees the address that would be reached. Run when a webhook is saved and again
 * before each delivery.
 */
import { forbiddenRangeOf, isLoopbackAddress } from './ip-ranges.ts';
import { parseIPv4, parseIPv6 } from './ip-address.ts';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface OutboundOptions {
  /** Lets the local stand-in deliver over plain http to loopback; never set in production. */
  allowLoopbackHttp: boolean;
}

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

// Names that resolve only inside a network, or are reserved and never public.
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'home.arpa',
  'localdomain',
  'lan',
  'intranet',
  'corp',
  'home',
  'private',
  'test',
  'invalid',
  'onion',
];

export function parseWebhookUrl(raw: string, options: OutboundOptions): WebhookUrlCheck {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH)
    return refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  if (hasUnsafeCharacter(raw)) return refuse('must not contain spaces, control characters or backslashes');
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url) return refuse('is not a valid URL');
  const problem = schemeProblem(url, options) ?? partsProblem(url) ?? hostProblem(url.hostname, options);
  return problem === null ? { ok: true, url } : refuse(problem);
}

/** Whether `hostname` (as `URL.hostname` writes it) is an IP literal rather than a name to resolve. */
export function literalAddressOf(hostname: string): string | null {
  if (parseIPv4(hostname) !== null) return hostname;
  if (hostname.startsWith('[') && parseIPv6(hostname) !== null) return hostname.slice(1, -1);
  return null;
}

/** `localhost` or a loopback literal: the only hosts plain http may reach, and only with the flag. */
export function isLoopbackHost(hostname: string): boolean {
  const literal = literalAddressOf(hostname);
  return literal === null ? hostname === 'localhost' : isLoopbackAddress(literal);
}

function schemeProblem(url: URL, options: OutboundOptions): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && options.allowLoopbackHttp && isLoopbackHost(url.hostname)) return null;
  return 'must use https';
}

function partsProblem(url: URL): string | null {
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (url.hash !== '' || url.href.endsWith('#')) return 'must not contain a fragment';
  if (url.hostname === '') return 'must have a host';
  return null;
}

function hostProblem(hostname: string, options: OutboundOptions): string | null {
  if (options.allowLoopbackHttp && isLoopbackHost(hostname)) return null;
  const literal = literalAddressOf(hostname);
  if (literal !== null) return addressProblem(literal);
  if (hostname.startsWith('[')) return 'has an IPv6 host that is not a plain address';
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (!name.includes('.')) return 'must use a fully qualified domain name';
  if (INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`)))
    return 'points at a name that only exists inside a private network';
  return null;
}

/** The sentence for an address that is not public, naming its range. */
export function addressProblem(address: string): string | null {
  const range = forbiddenRangeOf(address);
  return range === null ? null : `points at an address that is not public (${range})`;
}

/** Spaces, control characters and backslashes, which URL parsers disagree about. */
function hasUnsafeCharacter(raw: string): boolean {
  return Array.from(raw).some((char) => char <= ' ' || char === '\u007f' || char === '\\');
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}
