// `npm run status [-- --json]`: the stand-in's URLs and keys, as `supabase status` prints them.
import { readConfig, type StandInConfig } from './config.ts';
import { describeStandIn, formatDescription } from './describe.ts';
import { readKeys } from './keys.ts';
import { readRunningState } from './state.ts';

async function main(): Promise<void> {
  const asJson = process.argv.includes('--json');
  const configured = readConfig();
  const keys = await readKeys(configured.dataDir);
  if (!keys) {
    process.stderr.write(`No stand-in data in ${configured.dataDir} yet: run \`npm start\` first.\n`);
    process.exit(1);
  }
  const running = await readRunningState(configured.dataDir);
  const config: StandInConfig = running
    ? { ...configured, ports: running.ports, web: running.web }
    : configured;
  const description = describeStandIn(config, keys);
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ RUNNING: running !== null, ...description }, null, 2)}\n`);
    return;
  }
  const headline = running ? `Tasklane is running (pid ${running.pid}).` : 'Tasklane is not running.';
  process.stdout.write(`${headline}\n\n${formatDescription(description)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
