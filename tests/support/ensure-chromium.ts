// Makes sure Debian's Chromium is there for the browser tests and benchmarks: installs it when we can
// (root with apt), or stops with one line saying how. Playwright cannot download its own browser on these
// machines.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { CHROMIUM_PATH } from './browser.ts';

function main(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (userInfo().uid !== 0 || !hasApt()) {
    process.stderr.write(
      `Chromium is missing at ${CHROMIUM_PATH}: install it with \`sudo apt-get install -y chromium\`.\n`,
    );
    process.exit(1);
  }
  process.stdout.write('Installing Debian chromium for the browser tests (apt-get)…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(CHROMIUM_PATH)) {
    process.stderr.write(`apt-get ran but ${CHROMIUM_PATH} is still missing.\n`);
    process.exit(1);
  }
}

function hasApt(): boolean {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

main();
