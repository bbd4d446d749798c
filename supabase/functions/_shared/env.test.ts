import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

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
    });
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
