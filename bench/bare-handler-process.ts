/**
 * Runs bench/bare-handler.ts on a port of its own, called directly (no gateway): under the repository's
 * Deno and the stand-in's function host, with the flags the stand-in gives its functions, and stops it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { denoHostCommand } from '../local/functions/function-workers.ts';
import { freePort } from '../local/ports.ts';

const PROJECT_DIR = resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 60_000;

export interface BareHandler {
  url: string;
  stop(): Promise<void>;
}

export async function startBareHandler(databaseUrl: string): Promise<BareHandler> {
  const port = await freePort();
  const [deno, args] = denoHostCommand(PROJECT_DIR, join(PROJECT_DIR, 'bench', 'bare-handler.ts'), port);
  const child = spawn(deno, args, {
    cwd: PROJECT_DIR,
    env: { ...process.env, SUPABASE_DB_URL: databaseUrl, NO_COLOR: '1' },
    stdio: 'pipe',
  });
  let output = '';
  const ready = new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the bare handler did not start:\n${output}`)),
      READY_TIMEOUT_MS,
    );
    const watch = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(`listening on ${port}`)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bare handler exited (${code}):\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}
