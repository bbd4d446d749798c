import { describe, expect, it } from 'vitest';
import { isLoopbackHost, requestedSslMode } from './tls-default.ts';

describe('the sslmode a database URL asks for, with a missing or prefer one made explicit', () => {
  it.each([
    ['postgresql://postgres:postgres@127.0.0.1:54322/postgres', 'disable'],
    ['postgresql://postgres:postgres@127.0.0.1:54322/postgres?sslmode=prefer', 'disable'],
    ['postgresql://postgres:postgres@127.8.9.10:5432/postgres', 'disable'],
    ['postgresql://postgres:postgres@localhost:5432/postgres', 'disable'],
    ['postgresql://postgres:postgres@LOCALHOST:5432/postgres?sslmode=prefer', 'disable'],
    ['postgresql://postgres:postgres@[::1]:5432/postgres', 'disable'],
    ['postgresql://postgres:postgres@127.0.0.1:54322/postgres?sslmode=require', 'require'],
    ['postgresql://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres', 'require'],
    [
      'postgresql://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres?sslmode=prefer',
      'require',
    ],
    ['postgresql://postgres:pw@db.abcdefghijklmnop.supabase.co:5432/postgres', 'require'],
    ['postgresql://postgres:pw@10.0.0.5:5432/postgres', 'require'],
    ['postgresql://postgres:pw@128.0.0.1:5432/postgres', 'require'],
    ['postgresql://postgres:pw@[2001:db8::1]:5432/postgres', 'require'],
    ['postgresql://postgres:pw@localhost.example.com:5432/postgres', 'require'],
    ['postgresql://postgres:pw@127.0.0.1.nip.io:5432/postgres', 'require'],
    ['postgresql://postgres:pw@db.example.com:5432/postgres?sslmode=disable', 'disable'],
    ['postgresql://postgres:pw@db.example.com:5432/postgres?sslmode=allow', 'allow'],
    ['postgresql://postgres:pw@db.example.com:5432/postgres?sslmode=verify-full', 'verify-full'],
  ])('%s → %s', (url, mode) => {
    expect(requestedSslMode(new URL(url))).toBe(mode);
  });
});

describe('a loopback host', () => {
  it.each(['127.0.0.1', '127.255.255.254', 'localhost', 'Localhost', '[::1]', '::1'])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each(['', '0.0.0.0', '10.0.0.1', '127.0.0.1.example.com', '1127.0.0.1', 'db.example.com', '[::2]'])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
