import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/ports.ts';
import { startCluster, type RunningCluster } from '../../local/postgres/cluster.ts';

export interface TestCluster {
  cluster: RunningCluster;
  dispose(): Promise<void>;
}

// Durability is not what these tests measure; skipping fsync makes cloning databases cheap.
const THROWAWAY_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '300',
};

/**
 * A throwaway PostgreSQL 17 on a free loopback port, in a temporary directory removed afterwards;
 * `superuser` names initdb's bootstrap superuser (`postgres` unless told).
 */
export async function startTestCluster({ superuser }: { superuser?: string } = {}): Promise<TestCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'tasklane-pg-'));
  await chmod(dir, 0o755); // PostgreSQL runs as its own OS user when we are root.
  const cluster = await startCluster({
    dataDir: join(dir, 'data'),
    port: await freePort(),
    settings: THROWAWAY_SETTINGS,
    superuser,
  });
  return {
    cluster,
    dispose: async () => {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
