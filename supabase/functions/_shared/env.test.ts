import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv, preparedStatementsOf } from './env.ts';

const VALID = {
  SUPABASE_URL: 'http://127.0.0.1:54321',
  SUPABASE_DB_URL: 'postgresql://postgres:s3cret-password@127.0.0.1:54322/postgres',
};

function failureOf(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('parseEnv accepted an invalid environment');
}

describe('parseEnv', () => {
  it('reads a complete environment, with defaults for the optional variables', () => {
    expect(parseEnv({ ...VALID, APP_URL: 'https://app.tasklane.dev', UNRELATED: 'x' })).toEqual({
      ...VALID,
      ALLOWED_ORIGINS: [],
      LOG_LEVEL: 'info',
      APP_URL: 'https://app.tasklane.dev',
      MAIL_FROM: 'Tasklane <no-reply@tasklane.local>',
      RATE_LIMIT_USER_PER_MINUTE: 600,
      RATE_LIMIT_IP_PER_MINUTE: 60,
      TASKLANE_DB_POOL_SIZE: 3,
      TASKLANE_TRUSTED_PROXY_HOPS: 1,
      TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP: false,
    });
  });

  it('allows webhooks plain http to loopback only when told so, as the stand-in does', () => {
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    expect(
      parseEnv({ ...base, TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true' })
        .TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP,
    ).toBe(true);
    expect(failureOf({ ...base, TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'yes' }).message).toContain(
      'TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP must be true only where the local stand-in runs',
    );
  });

  it('reads rate limits, and refuses ones that are not positive whole numbers', () => {
    const env = parseEnv({ ...VALID, APP_URL: 'https://a.dev', RATE_LIMIT_USER_PER_MINUTE: '6000' });
    expect(env.RATE_LIMIT_USER_PER_MINUTE).toBe(6000);
    expect(failureOf({ ...VALID, APP_URL: 'https://a.dev', RATE_LIMIT_IP_PER_MINUTE: '0' }).message).toMatch(
      /^Invalid environment: RATE_LIMIT_IP_PER_MINUTE must be a whole number/,
    );
  });

  it('reads the mail relay settings', () => {
    const env = parseEnv({
      ...VALID,
      APP_URL: 'https://app.tasklane.dev/',
      MAIL_API_URL: 'https://api.resend.com/emails',
      MAIL_API_KEY: 're_123',
      MAIL_FROM: 'Acme <tasks@acme.dev>',
    });
    expect(env).toMatchObject({
      APP_URL: 'https://app.tasklane.dev',
      MAIL_API_URL: 'https://api.resend.com/emails',
      MAIL_API_KEY: 're_123',
      MAIL_FROM: 'Acme <tasks@acme.dev>',
    });
    expect(failureOf({ ...VALID, APP_URL: 'x', MAIL_API_URL: 'smtp://mail' }).message).toBe(
      "Invalid environment: APP_URL must be the web app's http(s) URL, such as https://app.example.com; " +
        "MAIL_API_URL must be the mail relay's http(s) endpoint, such as https://api.resend.com/emails",
    );
  });

  it('takes the first allowed origin as APP_URL when it is not set, and fails without either', () => {
    const env = parseEnv({ ...VALID, ALLOWED_ORIGINS: 'http://localhost:5173,https://app.tasklane.dev' });
    expect(env.APP_URL).toBe('http://localhost:5173');
    expect(failureOf(VALID).message).toBe(
      'Invalid environment: APP_URL is not set, and ALLOWED_ORIGINS names no origin to default it to',
    );
  });

  it('splits ALLOWED_ORIGINS on commas and trims each origin', () => {
    const env = parseEnv({ ...VALID, ALLOWED_ORIGINS: ' http://localhost:5173, https://app.tasklane.dev ,' });
    expect(env.ALLOWED_ORIGINS).toEqual(['http://localhost:5173', 'https://app.tasklane.dev']);
  });

  it('needs neither legacy API key (projects restored since November 2025 have none)', () => {
    expect(parseEnv({ ...VALID, APP_URL: 'http://localhost:5173' })).not.toHaveProperty('SUPABASE_ANON_KEY');
  });

  it("reads the key Storage is called with: the platform's default secret key, else the legacy service_role key", () => {
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    const secretKeys = JSON.stringify({ other: 'sb_secret_other', default: 'sb_secret_default' });
    expect(parseEnv({ ...base, SUPABASE_SECRET_KEYS: secretKeys }).STORAGE_SERVICE_KEY).toBe(
      'sb_secret_default',
    );
    expect(
      parseEnv({ ...base, SUPABASE_SECRET_KEYS: JSON.stringify({ only: 'sb_secret_only' }) })
        .STORAGE_SERVICE_KEY,
    ).toBe('sb_secret_only');
    expect(parseEnv({ ...base, SUPABASE_SERVICE_ROLE_KEY: 'eyJlegacy' }).STORAGE_SERVICE_KEY).toBe(
      'eyJlegacy',
    );
    expect(parseEnv(base).STORAGE_SERVICE_KEY).toBeUndefined();
  });

  it('boots with SUPABASE_SECRET_KEYS empty or unparsable, as if it were absent', () => {
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    for (const unusable of ['{}', 'not json', 'sb_secret_bare', '{"default":""}']) {
      expect(parseEnv({ ...base, SUPABASE_SECRET_KEYS: unusable }).STORAGE_SERVICE_KEY).toBeUndefined();
      expect(
        parseEnv({ ...base, SUPABASE_SECRET_KEYS: unusable, SUPABASE_SERVICE_ROLE_KEY: 'eyJlegacy' })
          .STORAGE_SERVICE_KEY,
      ).toBe('eyJlegacy');
    }
  });

  it('reads the JWKS the platform provides, as {"keys":[...]} or a bare array', () => {
    const key = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1', alg: 'ES256' };
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    expect(parseEnv({ ...base, SUPABASE_JWKS: JSON.stringify({ keys: [key] }) }).SUPABASE_JWKS).toEqual({
      keys: [key],
    });
    expect(parseEnv({ ...base, SUPABASE_JWKS: JSON.stringify([key]) }).SUPABASE_JWKS).toEqual({
      keys: [key],
    });
    expect(parseEnv({ ...base, SUPABASE_JWKS: '{"keys":[]}' }).SUPABASE_JWKS).toEqual({ keys: [] });
    expect(parseEnv(base).SUPABASE_JWKS).toBeUndefined();
  });

  it('boots with SUPABASE_JWKS empty or unparsable, as if it were absent (the keys are then fetched)', () => {
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    for (const malformed of ['{"keys":', '{"keys":[{"crv":"P-256"}]}', '"jwks"', '{}']) {
      expect(parseEnv({ ...base, SUPABASE_JWKS: malformed }).SUPABASE_JWKS).toBeUndefined();
    }
  });

  it('reads how many proxies in front of the API append to X-Forwarded-For: one unless told', () => {
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    expect(parseEnv(base).TASKLANE_TRUSTED_PROXY_HOPS).toBe(1);
    expect(parseEnv({ ...base, TASKLANE_TRUSTED_PROXY_HOPS: '2' }).TASKLANE_TRUSTED_PROXY_HOPS).toBe(2);
    expect(parseEnv({ ...base, TASKLANE_TRUSTED_PROXY_HOPS: '0' }).TASKLANE_TRUSTED_PROXY_HOPS).toBe(0);
    for (const invalid of ['-1', '1.5', 'two', '11']) {
      expect(failureOf({ ...base, TASKLANE_TRUSTED_PROXY_HOPS: invalid }).message).toContain(
        'TASKLANE_TRUSTED_PROXY_HOPS must be',
      );
    }
  });

  it('reads the legacy JWT secret, and refuses one shorter than 32 characters', () => {
    const base = { ...VALID, APP_URL: 'https://a.dev' };
    const secret = 'super-secret-jwt-token-with-at-least-32-characters';
    expect(parseEnv({ ...base, TASKLANE_LEGACY_JWT_SECRET: secret }).TASKLANE_LEGACY_JWT_SECRET).toBe(secret);
    expect(parseEnv(base).TASKLANE_LEGACY_JWT_SECRET).toBeUndefined();
    const { message } = failureOf({ ...base, TASKLANE_LEGACY_JWT_SECRET: 'short-secret' });
    expect(message).toBe(
      "Invalid environment: TASKLANE_LEGACY_JWT_SECRET must be the project's legacy JWT secret " +
        '(Project Settings → JWT Keys → Legacy JWT Secret), at least 32 characters',
    );
    expect(message).not.toContain('short-secret');
  });

  it("takes an optional pooler URL, pool size and CA certificate for the API's connections", () => {
    const env = parseEnv({ ...VALID, APP_URL: 'http://localhost:5173' });
    expect(env.TASKLANE_DB_URL).toBeUndefined();
    expect(env.TASKLANE_DB_POOL_SIZE).toBe(3);
    const pooled = parseEnv({
      ...VALID,
      APP_URL: 'http://localhost:5173',
      TASKLANE_DB_URL: 'postgresql://postgres.ref:pw@pooler.example.com:6543/postgres?sslmode=require',
      TASKLANE_DB_POOL_SIZE: '2',
      TASKLANE_DB_CA_CERT: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    });
    expect(pooled).toMatchObject({ TASKLANE_DB_POOL_SIZE: 2 });
    expect(
      failureOf({ ...VALID, APP_URL: 'http://localhost:5173', TASKLANE_DB_POOL_SIZE: '0' }).message,
    ).toBe(
      'Invalid environment: TASKLANE_DB_POOL_SIZE must be a whole number of connections per function instance, 1 to 20 (default 3)',
    );
    expect(
      failureOf({ ...VALID, APP_URL: 'http://localhost:5173', TASKLANE_DB_CA_CERT: 'not a pem' }).message,
    ).toContain('TASKLANE_DB_CA_CERT must be');
  });

  it('prepares statements on the direct connection only, unless TASKLANE_DB_PREPARED_STATEMENTS says', () => {
    const direct = { ...VALID, APP_URL: 'http://localhost:5173' };
    const pooled = {
      ...direct,
      TASKLANE_DB_URL: 'postgresql://postgres.ref:pw@pooler.example.com:6543/postgres',
    };
    expect(preparedStatementsOf(parseEnv(direct))).toBe(true);
    expect(preparedStatementsOf(parseEnv(pooled))).toBe(false);
    expect(preparedStatementsOf(parseEnv({ ...direct, TASKLANE_DB_PREPARED_STATEMENTS: 'off' }))).toBe(false);
    expect(preparedStatementsOf(parseEnv({ ...pooled, TASKLANE_DB_PREPARED_STATEMENTS: 'on' }))).toBe(true);
    expect(failureOf({ ...direct, TASKLANE_DB_PREPARED_STATEMENTS: 'yes' }).message).toContain(
      'TASKLANE_DB_PREPARED_STATEMENTS must be on or off',
    );
  });

  it('treats empty values as unset', () => {
    expect(
      parseEnv({ ...VALID, ALLOWED_ORIGINS: '', LOG_LEVEL: '', APP_URL: 'http://localhost:5173' }),
    ).toMatchObject({
      ALLOWED_ORIGINS: [],
      LOG_LEVEL: 'info',
    });
    expect(failureOf({ ...VALID, SUPABASE_DB_URL: '' }).message).toContain('SUPABASE_DB_URL is not set');
  });

  it('names every missing or malformed variable in one message', () => {
    const { message } = failureOf({
      SUPABASE_URL: 'not a url',
      SUPABASE_DB_URL: 'mysql://root:hunter2@db/app',
      ALLOWED_ORIGINS: 'https://ok.example.com,https://with.path.example.com/app',
      LOG_LEVEL: 'loud',
    });
    expect(message).toBe(
      'Invalid environment: SUPABASE_URL must be an http(s) URL; ' +
        'SUPABASE_DB_URL must be a postgres:// connection URL; ' +
        'ALLOWED_ORIGINS must be comma-separated origins such as https://app.example.com; ' +
        'LOG_LEVEL must be one of debug, info, warn, error',
    );
  });

  it('never prints a value, since most are secrets', () => {
    const { message } = failureOf({
      ...VALID,
      SUPABASE_DB_URL: 'mysql://root:hunter2@db/app',
      SUPABASE_URL: 'ftp://x',
    });
    expect(message).not.toMatch(/hunter2|mysql|ftp/);
  });
});
