import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StandInConfig } from './config.ts';

/** What a running stand-in tells `npm run status`: its pid and where each service listens. */
export interface RunningState {
  pid: number;
  startedAt: string;
  ports: StandInConfig['ports'];
  web: boolean;
}

const stateFile = (dataDir: string) => join(dataDir, 'running.json');

export async function writeRunningState(config: StandInConfig): Promise<void> {
  const state: RunningState = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    ports: config.ports,
    web: config.web,
  };
  await writeFile(stateFile(config.dataDir), JSON.stringify(state, null, 2));
}

export async function readRunningState(dataDir: string): Promise<RunningState | null> {
  const text = await readFile(stateFile(dataDir), 'utf8').catch(() => null);
  if (text === null) return null;
  const state = JSON.parse(text) as RunningState;
  return isAlive(state.pid) ? state : null;
}

export async function clearRunningState(dataDir: string): Promise<void> {
  await rm(stateFile(dataDir), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
