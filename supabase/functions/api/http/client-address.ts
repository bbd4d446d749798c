/**
 * The caller's IP address, for the per-IP rate limit: the first entry of `X-Forwarded-For` when it is an
 * IP address (Supabase's gateway forwards the client's address there), else the address of the
 * connection, which only the runtime knows (see AppDeps.connectionAddress). IPv6 addresses are written in
 * their canonical form, so that one address spelled two ways is still one bucket.
 */

const IPV4 =
  /^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$/;
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;

export function clientAddressOf(
  forwardedFor: string | undefined,
  connectionAddress: string | undefined,
): string | undefined {
  const first = forwardedFor?.split(',')[0]?.trim() ?? '';
  return canonicalIp(first) ?? (connectionAddress && canonicalIp(connectionAddress));
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
