import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import type { OsUser } from './os-user.ts';

/**
 * Whether `user` can search `path` (a directory) or run it (a file): asked of the kernel by running
 * `test -x` as that user, so every directory above it counts, as it will for PostgreSQL itself.
 */
export function canReach(user: OsUser, path: string): boolean {
  if (user.uid === userInfo().uid) return true;
  return spawnSync('test', ['-x', path], { uid: user.uid, gid: user.gid }).status === 0;
}
