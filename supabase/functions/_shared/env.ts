/**
 * The API's environment, read and checked in this one module. A bad or missing variable fails at boot
 * with a message naming it; values are never printed, because most of them are secrets.
 *
 * Mail (docs/decisions/0008) is optional: without MAIL_API_URL nothing is sent and each mail is logged
 * as not sent. APP_URL, the web app's address that links in mails point into, defaults to the first of
 * ALLOWED_ORIGINS (the web app is the API's first browser client); with neither, the API cannot link
 * anywhere and refuses to boot.
 *
 * The legacy SUPABASE_ANON_KEY is not read: the API verifies tokens against the JWKS and reaches the
 * database directly. Storage, though, is reached over HTTP as the service (attachments, avatars): with the
 * `default` secret key of SUPABASE_SECRET_KEYS, which hosted Edge Functions are given, else the legacy
 * SUPABASE_SERVICE_ROLE_KEY (projects restored since November 2025 have none). Without either, the API
 * boots and answers its file routes `503 unavailable` (STORAGE_SERVICE_KEY is undefined); an empty or
 * unparsable SUPABASE_SECRET_KEYS or SUPABASE_JWKS counts as unset (platform-variables.ts).
 *
 * Access tokens' keys (docs/decisions/0015): SUPABASE_JWKS, which hosted Edge Functions are given, is used
 * when set; TASKLANE_LEGACY_JWT_SECRET makes HS256 tokens of a project still on the legacy JWT secret
 * verify. (Hosted Supabase refuses secrets named SUPABASE_…, hence the TASKLANE_ prefix.)
 */
import { z } from 'zod';
import { DEFAULT_TRUSTED_PROXY_HOPS, RATE_LIMIT_PER_MINUTE } from './limits.ts';
import { LOG_LEVELS } from './logger.ts';
import { apiKeyMap, jsonWebKeySet, unusablePlatformVariables } from './platform-variables.ts';

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

const httpUrl = z.url({ protocol: /^https?$/ });
const perMinute = z.coerce.number().int().min(1);

/** Supabase's dashboard makes legacy JWT secrets of at least 32 characters. */
const LEGACY_JWT_SECRET_MIN_LENGTH = 32;

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/./);

/**
 * Connections per function instance. Small: hosted Nano and Micro databases allow 60 in all, shared with
 * Auth, Storage and Realtime, and instances multiply under load (docs/deploy.md).
 */
const DEFAULT_POOL_SIZE = 3;
const MAX_TRUSTED_PROXY_HOPS = 10;
const MAX_POOL_SIZE = 20;

export const DEFAULT_MAIL_FROM = 'Tasklane <no-reply@tasklane.local>';

const EnvSchema = z
  .object({
    SUPABASE_URL: httpUrl,
    SUPABASE_DB_URL: postgresUrl,
    ALLOWED_ORIGINS: originList.default([]),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    APP_URL: httpUrl.optional(),
    MAIL_API_URL: httpUrl.optional(),
    MAIL_API_KEY: z.string().optional(),
    MAIL_FROM: z.string().default(DEFAULT_MAIL_FROM),
    NOTIFICATION_MAIL_BATCH_SECONDS: z.coerce.number().int().min(0).max(3600).optional(),
    RATE_LIMIT_USER_PER_MINUTE: perMinute.default(RATE_LIMIT_PER_MINUTE.user),
    RATE_LIMIT_IP_PER_MINUTE: perMinute.default(RATE_LIMIT_PER_MINUTE.ip),
    SUPABASE_JWKS: jsonWebKeySet.optional(),
    SUPABASE_SECRET_KEYS: apiKeyMap.optional(),
    SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
    TASKLANE_LEGACY_JWT_SECRET: z.string().min(LEGACY_JWT_SECRET_MIN_LENGTH).optional(),
    TASKLANE_TRUSTED_PROXY_HOPS: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_TRUSTED_PROXY_HOPS)
      .default(DEFAULT_TRUSTED_PROXY_HOPS),
    TASKLANE_DB_URL: postgresUrl.optional(),
    TASKLANE_DB_POOL_SIZE: z.coerce.number().int().min(1).max(MAX_POOL_SIZE).default(DEFAULT_POOL_SIZE),
    TASKLANE_DB_CA_CERT: z.string().includes('-----BEGIN CERTIFICATE-----').optional(),
    TASKLANE_DB_PREPARED_STATEMENTS: z.enum(['on', 'off']).optional(),
    TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP: z
      .enum(['true', 'false'])
      .default('false')
      .transform((allowed) => allowed === 'true'),
  })
  .transform((env, context) => {
    const appUrl = env.APP_URL ?? env.ALLOWED_ORIGINS[0];
    const STORAGE_SERVICE_KEY = env.SUPABASE_SECRET_KEYS ?? env.SUPABASE_SERVICE_ROLE_KEY;
    if (appUrl !== undefined) return { ...env, APP_URL: appUrl.replace(/\/+$/, ''), STORAGE_SERVICE_KEY };
    context.issues.push({ code: 'custom', path: ['APP_URL'], message: 'not set', input: undefined });
    return z.NEVER;
  });

export type Env = z.output<typeof EnvSchema>;
type EnvName = Exclude<keyof Env, 'STORAGE_SERVICE_KEY'>;

const EXPECTED: Record<EnvName, string> = {
  SUPABASE_URL: 'an http(s) URL',
  SUPABASE_DB_URL: 'a postgres:// connection URL',
  ALLOWED_ORIGINS: 'comma-separated origins such as https://app.example.com',
  LOG_LEVEL: `one of ${LOG_LEVELS.join(', ')}`,
  APP_URL: "the web app's http(s) URL, such as https://app.example.com",
  MAIL_API_URL: "the mail relay's http(s) endpoint, such as https://api.resend.com/emails",
  MAIL_API_KEY: "the mail relay's API key",
  MAIL_FROM: 'a sender such as Tasklane <no-reply@example.com>',
  NOTIFICATION_MAIL_BATCH_SECONDS:
    'a whole number of seconds (0–3600) a first notification waits for others to join its mail (120)',
  RATE_LIMIT_USER_PER_MINUTE:
    'a whole number of requests per minute per user or API token (docs/product.md#limits: 600)',
  RATE_LIMIT_IP_PER_MINUTE:
    'a whole number of requests per minute per IP address without credentials (docs/product.md#limits: 60)',
  SUPABASE_JWKS: 'a JSON Web Key Set, {"keys":[...]} or [...]',
  SUPABASE_SECRET_KEYS: 'a JSON object of secret keys by name, such as {"default":"sb_secret_…"}',
  SUPABASE_SERVICE_ROLE_KEY: "the project's legacy service_role key",
  TASKLANE_LEGACY_JWT_SECRET:
    "the project's legacy JWT secret (Project Settings → JWT Keys → Legacy JWT Secret), " +
    `at least ${LEGACY_JWT_SECRET_MIN_LENGTH} characters`,
  TASKLANE_TRUSTED_PROXY_HOPS: `a whole number, 0 to ${MAX_TRUSTED_PROXY_HOPS}, of proxies in front of the API that append to X-Forwarded-For (default ${DEFAULT_TRUSTED_PROXY_HOPS})`,
  TASKLANE_DB_URL:
    "a postgres:// URL for the API's connections, such as the transaction pooler's (port 6543); default: SUPABASE_DB_URL",
  TASKLANE_DB_POOL_SIZE: `a whole number of connections per function instance, 1 to ${MAX_POOL_SIZE} (default ${DEFAULT_POOL_SIZE})`,
  TASKLANE_DB_CA_CERT: "the database's CA certificate, PEM (-----BEGIN CERTIFICATE-----…)",
  TASKLANE_DB_PREPARED_STATEMENTS:
    'on or off (default: on through SUPABASE_DB_URL, off through TASKLANE_DB_URL, whose transaction pooler does not keep them)',
  TASKLANE_WEBHOOKS_ALLOW_LOOPBACK_HTTP:
    'true only where the local stand-in runs: webhooks may then call http:// on loopback (default false)',
};

/**
 * Whether the API names its statements so that each connection prepares them once (docs/decisions/0027):
 * on the direct connection, not through a transaction-mode pooler (Supavisor on 6543, PgBouncer), which
 * hands each transaction whichever server connection is free. TASKLANE_DB_PREPARED_STATEMENTS overrides.
 */
export const preparedStatementsOf = (env: Env): boolean =>
  (env.TASKLANE_DB_PREPARED_STATEMENTS ?? (env.TASKLANE_DB_URL ? 'off' : 'on')) === 'on';

/** What an unset variable's message adds, when it is not simply required. */
const WHEN_UNSET: Partial<Record<EnvName, string>> = {
  APP_URL: ', and ALLOWED_ORIGINS names no origin to default it to',
};

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/**
 * Parses variables from `Deno.env.toObject()` or `process.env`; an empty value counts as unset, and so does
 * a platform variable that cannot be used (platform-variables.ts; the entry point logs which).
 */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const unusable = new Set<string>(unusablePlatformVariables(source).map(({ name }) => name));
  const input = Object.fromEntries(
    Object.keys(EXPECTED).map((name) => [
      name,
      source[name] === '' || unusable.has(name) ? undefined : source[name],
    ]),
  );
  const result = EnvSchema.safeParse(input);
  if (result.success) return result.data;
  throw new EnvError(`Invalid environment: ${describeProblems(result.error.issues, input)}`);
}

function describeProblems(issues: readonly z.core.$ZodIssue[], input: Record<string, unknown>): string {
  const names = [...new Set(issues.map((issue) => String(issue.path[0])))].filter(isEnvName);
  return names
    .map((name) =>
      input[name] === undefined
        ? `${name} is not set${WHEN_UNSET[name] ?? ''}`
        : `${name} must be ${EXPECTED[name]}`,
    )
    .join('; ');
}

function isEnvName(name: string): name is EnvName {
  return Object.hasOwn(EXPECTED, name);
}
