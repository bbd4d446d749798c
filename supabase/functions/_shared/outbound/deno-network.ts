/**
 * The resolver and connector the edge function delivers webhooks with (Deno only; the unit tests inject
 * their own). The socket is opened to the checked address, and TLS is then started over it with the URL's
 * host, so SNI and the certificate check are about the host the webhook names.
 */
import type { Connection, Connector } from './connector.ts';
import type { Resolver } from './destination.ts';
import { literalAddressOf } from './webhook-url.ts';

export const denoResolver: Resolver = async (hostname) => {
  const literal = literalAddressOf(hostname) ?? literalAddressOf(`[${hostname}]`);
  if (literal !== null) return [literal];
  const [v4, v6] = await Promise.all([recordsOf(hostname, 'A'), recordsOf(hostname, 'AAAA')]);
  return [...v4, ...v6];
};

/** A host's records of one type; none when the name or the type does not exist (NXDOMAIN, NODATA). */
async function recordsOf(hostname: string, type: 'A' | 'AAAA'): Promise<string[]> {
  try {
    return await Deno.resolveDns(hostname, type);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

export const denoConnector: Connector = async ({ address, port, tls }) => {
  const tcp = await Deno.connect({ hostname: address, port, transport: 'tcp' });
  if (tls === null) return connectionOf(tcp);
  try {
    return connectionOf(await Deno.startTls(tcp, { hostname: tls.serverName }));
  } catch (error) {
    closeQuietly(tcp);
    throw error;
  }
};

function connectionOf(conn: Deno.Conn | Deno.TlsConn): Connection {
  return { readable: conn.readable, writable: conn.writable, close: () => closeQuietly(conn) };
}

// Closing a connection whose streams already closed it throws BadResource; it is closed either way.
function closeQuietly(conn: Deno.Conn | Deno.TlsConn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
