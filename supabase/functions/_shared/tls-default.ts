/**
 * The sslmode a database URL asks for, with the default decided: a missing `sslmode`, or `prefer`, means
 * TLS (`require`) on every host that is not loopback, because hosted Supabase with "Enforce SSL" refuses
 * plain connections and node-postgres, unlike libpq, never falls back from one to the other. Loopback
 * (127.0.0.0/8, ::1, localhost: the local stand-in) keeps plain connections; any explicit mode stays.
 */
export function requestedSslMode(url: URL): string {
  const mode = url.searchParams.get('sslmode');
  if (mode !== null && mode !== 'prefer') return mode;
  return isLoopbackHost(url.hostname) ? 'disable' : 'require';
}

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A URL's hostname (IPv6 in brackets, as URL gives it, or bare) that names this machine's loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  const octets = IPV4_LOOPBACK.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}
