import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env-schema.ts';

describe('parseEnv', () => {
  it('reads the Supabase URL and anon key', () => {
    const env = parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'anon' });

    expect(env).toEqual({ supabaseUrl: 'http://127.0.0.1:54321', supabaseAnonKey: 'anon' });
  });

  it('drops a trailing slash from the URL', () => {
    const env = parseEnv({ VITE_SUPABASE_URL: 'https://abc.supabase.co/', VITE_SUPABASE_ANON_KEY: 'anon' });

    expect(env.supabaseUrl).toBe('https://abc.supabase.co');
  });

  it('names every missing variable in one readable message', () => {
    expect(() => parseEnv({})).toThrow(EnvError);
    expect(() => parseEnv({})).toThrow(
      /VITE_SUPABASE_URL must be the http\(s\) URL.*\n.*VITE_SUPABASE_ANON_KEY/,
    );
  });

  it('rejects a URL that is not http(s)', () => {
    expect(() =>
      parseEnv({ VITE_SUPABASE_URL: 'ftp://example.com', VITE_SUPABASE_ANON_KEY: 'anon' }),
    ).toThrow(/VITE_SUPABASE_URL/);
    expect(() => parseEnv({ VITE_SUPABASE_URL: '127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'anon' })).toThrow(
      /VITE_SUPABASE_URL/,
    );
  });

  it('rejects a blank anon key', () => {
    expect(() =>
      parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: '  ' }),
    ).toThrow(/VITE_SUPABASE_ANON_KEY must be/);
  });
});
