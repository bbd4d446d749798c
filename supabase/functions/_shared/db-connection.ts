/**
 * Where and how the API connects to Postgres, from a libpq-style URL. node-postgres reads `sslmode`
 * from a URL itself, but not as libpq does (it takes `require` to mean verify-full, which fails on
 * Supabase's certificates unless their CA is trusted), so the TLS parameters are taken out of the URL
 * and turned into its `ssl` option here:
 *
 * - none or `prefer`: `require` on a host that is not loopback, `disable` on loopback (tls-default.ts);
 * - `disable`, `allow`: no TLS;
 * - `require`: TLS; the server is verified against `caCert` when one is given, as libpq does when it
 *   has a root certificate, and only encrypted otherwise;
 * - `verify-ca`: TLS, the server's certificate must chain to `caCert`;
 * - `verify-full`: that, and its name must match the host.
 */
import type { ConnectionOptions } from 'node:tls';
import { requestedSslMode } from './tls-default.ts';

export interface DatabaseConnection {
  connectionString: string;
  ssl: false | ConnectionOptions;
  /** What the TLS set-up verifies, for the startup log: never the certificate itself. */
  tls:
    'off' | 'encrypted, server not verified' | 'verified against the CA' | 'verified against the CA and host';
}

export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

const TLS_PARAMETERS = [
  'sslmode',
  'sslrootcert',
  'sslcert',
  'sslkey',
  'sslpassword',
  'ssl',
  'uselibpqcompat',
];

export function databaseConnection(url: string, caCert?: string): DatabaseConnection {
  const parsed = new URL(url);
  const mode = requestedSslMode(parsed);
  for (const name of TLS_PARAMETERS) parsed.searchParams.delete(name);
  const connectionString = parsed.toString();
  switch (mode) {
    case 'disable':
    case 'allow':
      return { connectionString, ssl: false, tls: 'off' };
    case 'require':
      return caCert
        ? {
            connectionString,
            ssl: { ca: caCert, checkServerIdentity: () => undefined },
            tls: 'verified against the CA',
          }
        : { connectionString, ssl: { rejectUnauthorized: false }, tls: 'encrypted, server not verified' };
    case 'verify-ca':
    case 'verify-full':
      if (!caCert)
        throw new DatabaseUrlError(
          `sslmode=${mode} needs the database's CA certificate in TASKLANE_DB_CA_CERT (Project Settings → Database → SSL Configuration → Download certificate).`,
        );
      return mode === 'verify-ca'
        ? {
            connectionString,
            ssl: { ca: caCert, checkServerIdentity: () => undefined },
            tls: 'verified against the CA',
          }
        : { connectionString, ssl: { ca: caCert }, tls: 'verified against the CA and host' };
    default:
      throw new DatabaseUrlError(
        `sslmode=${mode} is not one of disable, allow, prefer, require, verify-ca, verify-full.`,
      );
  }
}
