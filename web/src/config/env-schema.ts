import * as z from 'zod/mini';

/**
 * The rules for the web app's environment. Pure, so that vite.config.ts can check the environment before it
 * serves or builds anything, and env.ts can check it again in the browser.
 */
const URL_RULE = 'must be the http(s) URL of the Supabase project, e.g. http://127.0.0.1:54321';
const ANON_KEY_RULE = "must be the Supabase project's anon (public) key";

const envSchema = z.object({
  VITE_SUPABASE_URL: z.url({ protocol: /^https?$/, error: URL_RULE }),
  VITE_SUPABASE_ANON_KEY: z.string({ error: ANON_KEY_RULE }).check(z.trim(), z.minLength(1, ANON_KEY_RULE)),
});

export interface Env {
  /** The Supabase project's URL, without a trailing slash. */
  supabaseUrl: string;
  supabaseAnonKey: string;
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

export function parseEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) throw new EnvError(explainIssues(result.error.issues));
  return {
    supabaseUrl: result.data.VITE_SUPABASE_URL.replace(/\/+$/, ''),
    supabaseAnonKey: result.data.VITE_SUPABASE_ANON_KEY,
  };
}

function explainIssues(issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => `  - ${issue.path.join('.')} ${issue.message}`);
  return [
    'Tasklane cannot start: its environment is not configured.',
    ...lines,
    'Set them in .env at the repository root or in the environment of the process that starts Vite.',
  ].join('\n');
}
