import { describe, expect, it } from 'vitest';
import { databaseConnection, DatabaseUrlError } from './db-connection.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n';
const POOLER = 'postgresql://postgres.ref:p%40ss@aws-0-eu-central-1.pooler.supabase.com:6543/postgres';

describe('the database connection from a libpq-style URL', () => {
  it('uses no TLS on loopback without sslmode or with prefer (the local stand-in), nor anywhere with disable or allow', () => {
    for (const query of ['', '?sslmode=disable', '?sslmode=allow', '?sslmode=prefer']) {
      expect(databaseConnection(`postgresql://postgres:postgres@127.0.0.1:54322/postgres${query}`)).toEqual({
        connectionString: 'postgresql://postgres:postgres@127.0.0.1:54322/postgres',
        ssl: false,
        tls: 'off',
      });
    }
    for (const query of ['?sslmode=disable', '?sslmode=allow']) {
      expect(databaseConnection(`${POOLER}${query}`).ssl).toBe(false);
    }
  });

  it('encrypts a connection to a host that is not loopback when sslmode is missing or prefer', () => {
    for (const query of ['', '?sslmode=prefer']) {
      const connection = databaseConnection(`${POOLER}${query}`);
      expect(connection).toEqual({
        connectionString: POOLER,
        ssl: { rejectUnauthorized: false },
        tls: 'encrypted, server not verified',
      });
      expect(databaseConnection(`${POOLER}${query}`, CA)).toMatchObject({
        ssl: { ca: CA },
        tls: 'verified against the CA',
      });
    }
  });

  it('encrypts with require, verifying the server against the CA when it has one', () => {
    const withoutCa = databaseConnection(`${POOLER}?sslmode=require`);
    expect(withoutCa.ssl).toEqual({ rejectUnauthorized: false });
    expect(withoutCa.tls).toBe('encrypted, server not verified');
    const withCa = databaseConnection(`${POOLER}?sslmode=require`, CA);
    expect(withCa.ssl).toMatchObject({ ca: CA });
    expect(withCa.ssl).not.toHaveProperty('rejectUnauthorized');
    expect(withCa.tls).toBe('verified against the CA');
  });

  it('verifies the CA with verify-ca, and the host name too with verify-full', () => {
    const ca = databaseConnection(`${POOLER}?sslmode=verify-ca`, CA);
    if (!ca.ssl) throw new Error('expected TLS');
    expect(ca.ssl.checkServerIdentity?.('other.example.com', {} as never)).toBeUndefined();
    const full = databaseConnection(`${POOLER}?sslmode=verify-full`, CA);
    expect(full.ssl).toEqual({ ca: CA });
    expect(full.tls).toBe('verified against the CA and host');
  });

  it('refuses verify-ca and verify-full without a CA, and an unknown sslmode, naming what to do', () => {
    expect(() => databaseConnection(`${POOLER}?sslmode=verify-full`)).toThrow(DatabaseUrlError);
    expect(() => databaseConnection(`${POOLER}?sslmode=verify-full`)).toThrow(/TASKLANE_DB_CA_CERT/);
    expect(() => databaseConnection(`${POOLER}?sslmode=strict`)).toThrow(/not one of/);
  });

  it('takes the TLS parameters out of the URL, so node-postgres does not read them its own way', () => {
    const { connectionString } = databaseConnection(
      `${POOLER}?sslmode=require&sslrootcert=/etc/ca.crt&application_name=tasklane`,
      CA,
    );
    expect(connectionString).toBe(`${POOLER}?application_name=tasklane`);
  });
});
