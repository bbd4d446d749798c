// Makes sure the deploy-parity test has its two outside tools: Deno at the hosted Edge Runtime's version
// (from npm, into its own prefix) and Debian's pgbouncer (installed when we can: root with apt; otherwise
// it stops with one line saying how). `npm run test:deploy` runs this first, as test:e2e does for Chromium.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import {
  HOSTED_DENO,
  HOSTED_DENO_LAUNCHER,
  HOSTED_DENO_PREFIX,
  HOSTED_DENO_VERSION,
  PGBOUNCER_PATH,
} from './deploy-tools.ts';

function ensureHostedDeno(): void {
  if (denoVersion() === HOSTED_DENO_VERSION) return;
  process.stdout.write(`Installing deno@${HOSTED_DENO_VERSION} from npm into ${HOSTED_DENO_PREFIX}…\n`);
  mkdirSync(HOSTED_DENO_PREFIX, { recursive: true });
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--prefix',
      HOSTED_DENO_PREFIX,
      `deno@${HOSTED_DENO_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  execFileSync(process.execPath, [HOSTED_DENO_LAUNCHER, '--version'], { stdio: 'ignore' });
  if (denoVersion() !== HOSTED_DENO_VERSION) {
    process.stderr.write(`npm installed deno@${HOSTED_DENO_VERSION} but ${HOSTED_DENO} does not run it.\n`);
    process.exit(1);
  }
}

function denoVersion(): string | undefined {
  if (!existsSync(HOSTED_DENO)) return undefined;
  const result = spawnSync(HOSTED_DENO, ['--version'], { encoding: 'utf8' });
  return /^deno (\S+)/.exec(result.stdout ?? '')?.[1];
}

function ensurePgbouncer(): void {
  if (existsSync(PGBOUNCER_PATH)) return;
  if (userInfo().uid !== 0 || !hasApt()) {
    process.stderr.write(
      `pgbouncer is missing at ${PGBOUNCER_PATH}: install it with \`sudo apt-get install -y pgbouncer\`.\n`,
    );
    process.exit(1);
  }
  process.stdout.write('Installing Debian pgbouncer for the deploy-parity test (apt-get)…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'pgbouncer'], { stdio: 'inherit', env });
  if (!existsSync(PGBOUNCER_PATH)) {
    process.stderr.write(`apt-get ran but ${PGBOUNCER_PATH} is still missing.\n`);
    process.exit(1);
  }
}

function hasApt(): boolean {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

ensureHostedDeno();
ensurePgbouncer();
