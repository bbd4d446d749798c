import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/**
 * The keys of one data directory, made on its first start as `supabase start` makes its own:
 * an HS256 secret that signs the anon and service_role API keys, an ES256 key pair that signs user
 * access tokens (published in the JWKS), and the new-style opaque publishable and secret keys.
 */
export interface StandInKeys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  signingKey: JWK & { kid: string };
}

const ISSUER = 'supabase-demo';
const TEN_YEARS_IN_SECONDS = 10 * 365 * 24 * 3600;

export function keysFile(dataDir: string): string {
  return join(dataDir, 'keys.json');
}

export async function loadOrCreateKeys(dataDir: string): Promise<StandInKeys> {
  const existing = await readKeys(dataDir);
  if (existing) return existing;
  const keys = await createKeys();
  const file = keysFile(dataDir);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  await chmod(file, 0o600);
  return keys;
}

export async function readKeys(dataDir: string): Promise<StandInKeys | null> {
  const text = await readFile(keysFile(dataDir), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as StandInKeys);
}

/** The public half of the signing key, as GET /auth/v1/.well-known/jwks.json publishes it. */
export function publicJwks(keys: StandInKeys): { keys: JWK[] } {
  const { kty, crv, x, y, kid } = keys.signingKey;
  return { keys: [{ kty, crv, x, y, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] }] };
}

async function createKeys(): Promise<StandInKeys> {
  const jwtSecret = randomBytes(32).toString('base64url');
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256' };
  return {
    jwtSecret,
    anonKey: await apiKeyJwt('anon', jwtSecret),
    serviceRoleKey: await apiKeyJwt('service_role', jwtSecret),
    publishableKey: `sb_publishable_${randomBytes(16).toString('base64url')}`,
    secretKey: `sb_secret_${randomBytes(16).toString('base64url')}`,
    signingKey,
  };
}

function apiKeyJwt(role: 'anon' | 'service_role', secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + TEN_YEARS_IN_SECONDS)
    .sign(new TextEncoder().encode(secret));
}
