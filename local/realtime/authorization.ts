import type pg from 'pg';
import type { Database } from '../db.ts';
import { becomeRequester, insertAsRequester, insertProbes, visibleProbes } from './authorization.queries.ts';
import type { AuthorizationRequest, Extension } from './authorization-request.ts';

/** Private-channel authorization by the RLS policies on realtime.messages. */
export interface Authorizer {
  /** The extensions the requester may read (SELECT) on the topic. */
  read(request: AuthorizationRequest, extensions: Extension[]): Promise<Set<Extension>>;
  /** Whether the requester may write (INSERT) the extension on the topic. */
  write(request: AuthorizationRequest, extension: Extension): Promise<boolean>;
}

const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Evaluates the policies as Realtime does (docs/supabase-protocols.md#authorization-of-private-channels),
 * inside a savepoint that is always rolled back, so nothing of a check stays in the database; each
 * transaction is bounded by the stand-in's statement timeout.
 */
export function databaseAuthorizer(database: Database, log: (line: string) => void): Authorizer {
  return {
    read: (request, extensions) =>
      database.transaction((client) =>
        rolledBack(client, async () => {
          const probes = await insertProbes(client, request.subTopic, extensions);
          await becomeRequester(client, request);
          const visible = await visibleProbes(
            client,
            probes.map((probe) => probe.id),
          );
          return new Set(visible);
        }),
      ),
    write: (request, extension) =>
      database.transaction((client) =>
        rolledBack(client, async () => {
          await becomeRequester(client, request);
          try {
            await insertAsRequester(client, request.subTopic, extension);
            return true;
          } catch (error) {
            if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) {
              log(`a write policy on realtime.messages failed: ${(error as Error).message}`);
            }
            return false;
          }
        }),
      ),
  };
}

async function rolledBack<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('savepoint realtime_authorization');
  try {
    return await work();
  } finally {
    await client.query('rollback to savepoint realtime_authorization');
  }
}
