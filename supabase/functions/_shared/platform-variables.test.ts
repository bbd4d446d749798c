import { describe, expect, it } from 'vitest';
import { createJsonLogger, type LogLevel } from './logger.ts';
import { unusablePlatformVariables, warnOfUnusablePlatformVariables } from './platform-variables.ts';

const SECRET = 'sb_secret_do-not-log-me';
const KEY = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1', alg: 'ES256' };

describe('the platform variables a function cannot use', () => {
  it('are none when each is absent or well formed', () => {
    expect(unusablePlatformVariables({})).toEqual([]);
    expect(
      unusablePlatformVariables({
        SUPABASE_SECRET_KEYS: JSON.stringify({ default: SECRET }),
        SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: 'sb_publishable_x' }),
        SUPABASE_JWKS: JSON.stringify({ keys: [KEY] }),
      }),
    ).toEqual([]);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['{}', 'empty'],
    ['not json', 'not JSON'],
    ['{"default":', 'not JSON'],
    [SECRET, 'not JSON'],
    ['{"default":42}', 'not of the expected shape'],
    ['["sb_secret_x"]', 'not of the expected shape'],
  ])('names SUPABASE_SECRET_KEYS=%j as %s', (value, problem) => {
    expect(unusablePlatformVariables({ SUPABASE_SECRET_KEYS: value })).toEqual([
      { name: 'SUPABASE_SECRET_KEYS', problem },
    ]);
  });

  it('checks the publishable keys and the JWKS the same way', () => {
    expect(unusablePlatformVariables({ SUPABASE_PUBLISHABLE_KEYS: '{}', SUPABASE_JWKS: 'not json' })).toEqual(
      [
        { name: 'SUPABASE_PUBLISHABLE_KEYS', problem: 'empty' },
        { name: 'SUPABASE_JWKS', problem: 'not JSON' },
      ],
    );
  });

  it('are each logged as a warning naming the variable, never its value', () => {
    const lines: { line: string; level: LogLevel }[] = [];
    const logger = createJsonLogger({ write: (line, level) => lines.push({ line, level }) });
    warnOfUnusablePlatformVariables(
      { SUPABASE_SECRET_KEYS: `{"default":"${SECRET}"`, SUPABASE_PUBLISHABLE_KEYS: '{}' },
      logger,
    );
    expect(lines.map(({ level }) => level)).toEqual(['warn', 'warn']);
    expect(lines.map(({ line }) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        msg: 'platform variable unusable, treated as absent',
        variable: 'SUPABASE_SECRET_KEYS',
        problem: 'not JSON',
      }),
      expect.objectContaining({ variable: 'SUPABASE_PUBLISHABLE_KEYS', problem: 'empty' }),
    ]);
    expect(lines.map(({ line }) => line).join('\n')).not.toContain(SECRET);
  });
});
