// `npm run reset`: wipes the stand-in's data directory (database, keys). The next `npm start` begins afresh.
import { rm } from 'node:fs/promises';
import { readConfig } from './config.ts';
import { removeLinkedCluster } from './postgres/cluster-directory.ts';
import { readRunningState } from './state.ts';

async function main(): Promise<void> {
  const config = readConfig();
  const running = await readRunningState(config.dataDir);
  if (running) {
    process.stderr.write(`Tasklane is running (pid ${running.pid}): stop it with Ctrl-C before resetting.\n`);
    process.exit(1);
  }
  await removeLinkedCluster(config.dataDir);
  await rm(config.dataDir, { recursive: true, force: true });
  process.stdout.write(
    `Removed ${config.dataDir}. The next \`npm start\` creates a fresh database and new keys.\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
