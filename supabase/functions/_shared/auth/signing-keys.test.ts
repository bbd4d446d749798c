import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonLogger } from '../logger.ts';
import {
  LEGACY_SECRET_ONLY_MESSAGE,
  NO_SIGNING_KEYS_MESSAGE,
  projectAuthKeys,
  reportSigningKeys,
} from './signing-keys.ts';

function capturedLogger() {
  const entries: Record<string, unknown>[] = [];
  const logger = createJsonLogger({
    write: (line) => void entries.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, entries };
}

let jwksServer: Server;
let supabaseUrl: string;
let servedKeys: JWK[] = [];
let rsaJwk: JWK;
/** A symmetric key, as a JWKS may list one: it verifies no ES256 or RS256 token. */
const octJwk: JWK = { kty: 'oct', k: 'c2VjcmV0', kid: 'shared', alg: 'HS256' };

beforeAll(async () => {
  const { publicKey } = await generateKeyPair('RS256', { extractable: true });
  rsaJwk = { ...(await exportJWK(publicKey)), kid: 'rsa-key', alg: 'RS256' };
  jwksServer = createServer((req, res) => {
    if (req.url !== '/auth/v1/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: servedKeys }));
  });
  jwksServer.listen(0, '127.0.0.1');
  await once(jwksServer, 'listening');
  supabaseUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

describe('reportSigningKeys, at startup', () => {
  it('logs an error saying no access token can be verified, and what to do, when SUPABASE_JWKS and the JWKS have no key', async () => {
    servedKeys = [octJwk];
    const { logger, entries } = capturedLogger();
    await reportSigningKeys(projectAuthKeys(supabaseUrl, { keys: [] }), false, logger);
    expect(entries).toEqual([expect.objectContaining({ level: 'error', msg: NO_SIGNING_KEYS_MESSAGE })]);
    expect(NO_SIGNING_KEYS_MESSAGE).toMatch(/no access token can be verified/);
    expect(NO_SIGNING_KEYS_MESSAGE).toMatch(/Project Settings → JWT Keys/);
    expect(NO_SIGNING_KEYS_MESSAGE).toMatch(/TASKLANE_LEGACY_JWT_SECRET/);
  });

  it('logs the same when there is no SUPABASE_JWKS and the fetched JWKS is empty', async () => {
    servedKeys = [];
    const { logger, entries } = capturedLogger();
    await reportSigningKeys(projectAuthKeys(supabaseUrl), false, logger);
    expect(entries).toEqual([expect.objectContaining({ level: 'error', msg: NO_SIGNING_KEYS_MESSAGE })]);
  });

  it('only warns, saying only legacy tokens verify, when the legacy JWT secret is configured', async () => {
    servedKeys = [];
    const { logger, entries } = capturedLogger();
    await reportSigningKeys(projectAuthKeys(supabaseUrl), true, logger);
    expect(entries).toEqual([expect.objectContaining({ level: 'warn', msg: LEGACY_SECRET_ONLY_MESSAGE })]);
  });

  it('says nothing when SUPABASE_JWKS or the fetched JWKS has an asymmetric key', async () => {
    const { logger, entries } = capturedLogger();
    servedKeys = [];
    await reportSigningKeys(projectAuthKeys(supabaseUrl, { keys: [rsaJwk] }), false, logger);
    servedKeys = [octJwk, rsaJwk];
    await reportSigningKeys(projectAuthKeys(supabaseUrl), false, logger);
    expect(entries).toEqual([]);
  });

  it('warns, without throwing, when the JWKS cannot be fetched', async () => {
    const { logger, entries } = capturedLogger();
    await reportSigningKeys(projectAuthKeys(`${supabaseUrl}/nowhere`), false, logger);
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'The JWT signing keys could not be loaded at startup; requests will try again.',
      }),
    ]);
  });
});
