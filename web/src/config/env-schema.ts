/**
 * The rules for the web app's environment. Pure, so that vite.config.ts can check the environment before it
 * serves or builds anything, and env.ts can check it again in the browser. Without zod: this runs on every
 * page's first load, which carries no zod (decision 0028).
 */
const URL_RULE = 'must be the http(s) URL of the Supabase project, e.g. http://127.0.0.1:54321';
const ANON_KEY_RULE = "must be the Supabase project's anon (public) key";

const RULES = {
  VITE_SUPABASE_URL: { rule: URL_RULE, valid: isHttpUrl },
  VITE_SUPABASE_ANON_KEY: { rule: ANON_KEY_RULE, valid: (value: string) => value.trim().length > 0 },
};

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

export interface Env {
  /** The Supabase project's URL, without a trailing slash. */
  supabaseUrl: string;
  supabaseAnonKey: string;
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

export function parseEnv(source: Record<string, unknown>): Env {
  const problems = Object.entries(RULES).flatMap(([name, { rule, valid }]) => {
    const value = source[name];
    return typeof value === 'string' && valid(value) ? [] : [`  - ${name} ${rule}`];
  });
  if (problems.length > 0) throw new EnvError(explain(problems));
  return {
    supabaseUrl: String(source['VITE_SUPABASE_URL']).replace(/\/+$/, ''),
    supabaseAnonKey: String(source['VITE_SUPABASE_ANON_KEY']).trim(),
  };
}

function explain(problems: readonly string[]): string {
  return [
    'Tasklane cannot start: its environment is not configured.',
    ...problems,
    'Set them in .env at the repository root or in the environment of the process that starts Vite.',
  ].join('\n');
}
