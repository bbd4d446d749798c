/** What the figures were measured on, printed under the table: they mean little without it. */
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type { Db } from '../local/db.ts';

const DENO = join(resolve(import.meta.dirname, '..'), 'node_modules', '.bin', 'deno');

export async function describeMachine(db: Db): Promise<string> {
  const cores = cpus();
  const memoryGiB = Math.round(totalmem() / 2 ** 30);
  const deno = /^deno (\S+)/.exec(execFileSync(DENO, ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
  const { rows } = await db.query<{ server_version: string }>('show server_version');
  return [
    `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), ${memoryGiB} GiB RAM, Linux ${release()}`,
    `Node ${process.version}, Deno ${deno}, PostgreSQL ${rows[0]?.server_version ?? '?'}`,
  ].join('; ');
}
