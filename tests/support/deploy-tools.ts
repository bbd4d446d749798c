import { join, resolve } from 'node:path';

/**
 * The Deno version hosted Supabase's Edge Runtime runs (docs/decisions/0013). It is installed from npm
 * into its own prefix, not as a dependency: its `deno` bin would clash with the stand-in's.
 */
export const HOSTED_DENO_VERSION = '2.1.4';

const REPO = resolve(import.meta.dirname, '..', '..');

export const HOSTED_DENO_PREFIX = join(
  REPO,
  'node_modules',
  '.cache',
  'tasklane',
  `deno-${HOSTED_DENO_VERSION}`,
);
/** npm's launcher, which links the platform's binary beside itself on its first run… */
export const HOSTED_DENO_LAUNCHER = join(HOSTED_DENO_PREFIX, 'node_modules', 'deno', 'bin.cjs');
/** …so that the test runs the binary itself, with no Node process between it and its signals. */
export const HOSTED_DENO = join(HOSTED_DENO_PREFIX, 'node_modules', 'deno', 'deno');

/** Debian's pgbouncer, in transaction mode the stand-in for Supavisor's port 6543. */
export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
