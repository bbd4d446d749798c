/**
 * Where a webhook URL leads: every address its host resolves to, each checked. One address that is not
 * public refuses the whole host, as the resolver could hand that one to the connection. Literal IP hosts
 * are not resolved.
 */
import { forbiddenRangeOf, isLoopbackAddress } from './ip-ranges.ts';
import { isLoopbackHost, literalAddressOf, parseWebhookUrl } from './webhook-url.ts';

/** A host's A and AAAA answers, as address text. */
export type Resolver = (hostname: string) => Promise<string[]>;

export type Destination = { ok: true; addresses: string[] } | { ok: false; reason: string };

export interface DestinationDeps {
  resolve: Resolver;
  allowLoopbackHttp: boolean;
}

// What `localhost` means to the stand-in; DNS is not asked, as it may not know the name.
const LOCALHOST_ADDRESSES = ['127.0.0.1', '::1'];

export async function resolveDestination(url: URL, deps: DestinationDeps): Promise<Destination> {
  const addresses = await addressesOf(url.hostname, deps);
  if (addresses === null) return { ok: false, reason: 'has a host that could not be resolved' };
  if (addresses.length === 0) return { ok: false, reason: 'has a host that resolves to no address' };
  const loopbackOnly = url.protocol === 'http:' || isLoopbackHost(url.hostname);
  for (const address of addresses) {
    const problem = destinationProblem(address, deps.allowLoopbackHttp, loopbackOnly);
    if (problem !== null) return { ok: false, reason: problem };
  }
  return { ok: true, addresses };
}

async function addressesOf(hostname: string, deps: DestinationDeps): Promise<string[] | null> {
  const literal = literalAddressOf(hostname);
  if (literal !== null) return [literal];
  if (deps.allowLoopbackHttp && hostname === 'localhost') return LOCALHOST_ADDRESSES;
  try {
    return await deps.resolve(hostname);
  } catch {
    return null;
  }
}

function destinationProblem(address: string, allowLoopback: boolean, loopbackOnly: boolean): string | null {
  if (allowLoopback && isLoopbackAddress(address)) return null;
  if (allowLoopback && loopbackOnly) return 'must reach only loopback addresses over http or as localhost';
  const range = forbiddenRangeOf(address);
  return range === null ? null : `resolves to an address that is not public (${range})`;
}

/** Both checks a webhook URL passes when it is saved: its text, then every address its host resolves to. */
export async function checkWebhookDestination(raw: string, deps: DestinationDeps): Promise<Destination> {
  const parsed = parseWebhookUrl(raw, deps);
  if (!parsed.ok) return parsed;
  return resolveDestination(parsed.url, deps);
}
