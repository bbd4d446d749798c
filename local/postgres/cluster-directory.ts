import { createHash } from 'node:crypto';
import { lstat, mkdir, readlink, rm, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { OsUser } from './os-user.ts';
import { canReach } from './reachable.ts';

/** Where a stand-in's cluster lives when PostgreSQL's OS user cannot reach the data directory. */
export const REACHABLE_CLUSTERS_DIR = '/var/lib/tasklane';

const LINK_NAME = 'postgres';

/**
 * Where the stand-in keeps its cluster: `<dataDir>/postgres`, unless PostgreSQL's OS user cannot reach
 * `dataDir` (we are root in a checkout below a directory only root can search). Then the cluster lives
 * under REACHABLE_CLUSTERS_DIR and `<dataDir>/postgres` is a symbolic link to it, so `npm run reset`
 * still finds it. A cluster left there without its link (the data directory was deleted) is stale.
 */
export async function clusterDirectory(dataDir: string, user: OsUser): Promise<string> {
  const inPlace = join(dataDir, LINK_NAME);
  if (canReach(user, dataDir)) return inPlace;
  const elsewhere = join(
    REACHABLE_CLUSTERS_DIR,
    createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16),
  );
  const entry = await lstat(inPlace).catch(() => null);
  if (entry?.isSymbolicLink() && (await readlink(inPlace)) === elsewhere) return elsewhere;
  if (entry)
    throw new Error(
      `PostgreSQL's OS user cannot reach the cluster in ${inPlace}: make its parent directories searchable (chmod o+x) or move it.`,
    );
  await rm(elsewhere, { recursive: true, force: true });
  await mkdir(REACHABLE_CLUSTERS_DIR, { recursive: true, mode: 0o755 });
  await symlink(elsewhere, inPlace);
  return elsewhere;
}

/** Removes the cluster that `<dataDir>/postgres` links to, if it is a link; the caller removes the rest. */
export async function removeLinkedCluster(dataDir: string): Promise<void> {
  const target = await readlink(join(dataDir, LINK_NAME)).catch(() => null);
  if (target) await rm(target, { recursive: true, force: true });
}
