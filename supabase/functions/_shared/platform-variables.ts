/**
 * The JSON variables Supabase gives every Edge Function: the project's secret and publishable keys by name,
 * and its JWKS. The platform sets them, not us, so one that arrives empty (`""`, `{}`) or unparsable must
 * not stop the function from booting: it counts as absent, and what needs it degrades as it does without
 * it (the file routes answer 503 without a secret key; the JWKS is fetched instead). Each is logged as a
 * warning, by name and problem only: the values are secrets.
 */
import type { JWK } from 'jose';
import { z } from 'zod';
import type { Logger } from './logger.ts';

const isJwk = (value: unknown): value is JWK =>
  typeof value === 'object' && value !== null && typeof (value as { kty?: unknown }).kty === 'string';

/** A variable that holds JSON text, parsed (never echoing the text: these hold keys). */
const jsonText = z.string().transform((text, context) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.issues.push({ code: 'custom', message: 'not JSON', input: undefined });
    return z.NEVER;
  }
});

/** A JSON Web Key Set as JSON text, `{"keys":[...]}` or a bare `[...]` (both forms are in use). */
export const jsonWebKeySet = jsonText.pipe(
  z
    .union([z.array(z.custom<JWK>(isJwk)), z.object({ keys: z.array(z.custom<JWK>(isJwk)) })])
    .transform((set) => ({ keys: Array.isArray(set) ? set : set.keys })),
);

/** `{"default":"sb_…", …}`: the key named `default`, else the only or first one. */
export const apiKeyMap = jsonText
  .pipe(z.record(z.string(), z.string().min(1)))
  .refine((keys) => Object.keys(keys).length > 0)
  .transform((keys) => keys['default'] ?? Object.values(keys)[0]);

const PLATFORM_VARIABLES = {
  SUPABASE_SECRET_KEYS: apiKeyMap,
  SUPABASE_PUBLISHABLE_KEYS: apiKeyMap,
  SUPABASE_JWKS: jsonWebKeySet,
} as const;

export type PlatformVariableName = keyof typeof PLATFORM_VARIABLES;

export interface UnusablePlatformVariable {
  name: PlatformVariableName;
  problem: 'empty' | 'not JSON' | 'not of the expected shape';
}

/** The platform variables that are set but cannot be used, in a fixed order. */
export function unusablePlatformVariables(
  source: Readonly<Record<string, string | undefined>>,
): UnusablePlatformVariable[] {
  return Object.entries(PLATFORM_VARIABLES).flatMap(([name, schema]) => {
    const value = source[name];
    if (value === undefined) return [];
    const problem = problemOf(value, schema);
    return problem ? [{ name: name as PlatformVariableName, problem }] : [];
  });
}

function problemOf(value: string, schema: z.ZodType): UnusablePlatformVariable['problem'] | undefined {
  if (value.trim() === '' || value.trim() === '{}') return 'empty';
  if (!isJson(value)) return 'not JSON';
  return schema.safeParse(value).success ? undefined : 'not of the expected shape';
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function warnOfUnusablePlatformVariables(
  source: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): void {
  for (const { name, problem } of unusablePlatformVariables(source)) {
    logger.warn('platform variable unusable, treated as absent', { variable: name, problem });
  }
}
