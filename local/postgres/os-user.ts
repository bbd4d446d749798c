import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';

export interface OsUser {
  uid: number;
  gid: number;
}

const POSTGRES_OS_USER = 'postgres';

/**
 * PostgreSQL refuses to run as root. As root (CI, containers) we run it as the system user `postgres`,
 * creating that user once if the machine lacks it; otherwise as whoever we are.
 */
export function postgresOsUser(): OsUser {
  const me = userInfo();
  if (me.uid !== 0) return { uid: me.uid, gid: me.gid };
  return lookUpUser() ?? createUser();
}

function lookUpUser(): OsUser | null {
  try {
    const uid = Number(execFileSync('id', ['-u', POSTGRES_OS_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', POSTGRES_OS_USER], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

function createUser(): OsUser {
  execFileSync('useradd', ['--system', '--user-group', '--no-create-home', POSTGRES_OS_USER]);
  const created = lookUpUser();
  if (!created) throw new Error(`Could not create the system user '${POSTGRES_OS_USER}' to run PostgreSQL.`);
  return created;
}
