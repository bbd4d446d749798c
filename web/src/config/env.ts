import { parseEnv, type Env } from './env-schema.ts';

/** The only place the web app reads its environment. Throws a readable EnvError at boot when it is wrong. */
export const env: Env = parseEnv(import.meta.env);
