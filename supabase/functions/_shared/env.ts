/**
 * The API's environment, read and checked in this one module. A bad or missing variable fails at boot
 * with a message naming it; values are never printed, because most of them are secrets.
 */
import { z } from 'zod';
import { LOG_LEVELS } from './logger.ts';

const isOrigin = (value: string): boolean => URL.canParse(value) && new URL(value).origin === value;

const originList = z
  .string()
  .transform((list) =>
    list
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
  )
  .pipe(z.array(z.string().refine(isOrigin)));

const EnvSchema = z.object({
  SUPABASE_URL: z.url({ protocol: /^https?$/ }),
  SUPABASE_DB_URL: z.string().regex(/^postgres(ql)?:\/\/./),
  SUPABASE_ANON_KEY: z.string(),
  SUPABASE_SERVICE_ROLE_KEY: z.string(),
  ALLOWED_ORIGINS: originList.default([]),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
});

export type Env = z.output<typeof EnvSchema>;
type EnvName = keyof Env;

const EXPECTED: Record<EnvName, string> = {
  SUPABASE_URL: 'an http(s) URL',
  SUPABASE_DB_URL: 'a postgres:// connection URL',
  SUPABASE_ANON_KEY: 'the project anon key',
  SUPABASE_SERVICE_ROLE_KEY: 'the project service-role key',
  ALLOWED_ORIGINS: 'comma-separated origins such as https://app.example.com',
  LOG_LEVEL: `one of ${LOG_LEVELS.join(', ')}`,
};

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/** Parses variables from `Deno.env.toObject()` or `process.env`; an empty value counts as unset. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const input = Object.fromEntries(
    Object.keys(EXPECTED).map((name) => [name, source[name] === '' ? undefined : source[name]]),
  );
  const result = EnvSchema.safeParse(input);
  if (result.success) return result.data;
  throw new EnvError(`Invalid environment: ${describeProblems(result.error.issues, input)}`);
}

function describeProblems(issues: readonly z.core.$ZodIssue[], input: Record<string, unknown>): string {
  const names = [...new Set(issues.map((issue) => String(issue.path[0])))].filter(isEnvName);
  return names
    .map((name) => (input[name] === undefined ? `${name} is not set` : `${name} must be ${EXPECTED[name]}`))
    .join('; ');
}

function isEnvName(name: string): name is EnvName {
  return Object.hasOwn(EXPECTED, name);
}
