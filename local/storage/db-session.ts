import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import type { Database } from '../db.ts';
import type { Caller } from './caller.ts';

/** What the request tells the policies, besides the caller: as Storage sets it per request. */
export interface RequestFacts {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Storage's name of the operation, e.g. `storage.object.upload` (`storage.operation`). */
  operation: string;
}

/** Headers that carry credentials stay out of the session, as they would out of a log. */
const SECRET_HEADERS = new Set(['authorization', 'apikey', 'cookie']);

/** The request's facts; its path without the query, which may hold a signed URL's token. */
export function requestFacts(req: IncomingMessage, operation: string): RequestFacts {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !SECRET_HEADERS.has(name)) headers[name] = String(value);
  }
  const path = new URL(req.url ?? '/', 'http://storage.local').pathname;
  return { method: req.method ?? 'GET', path, headers, operation };
}

/**
 * Runs `work` in one bounded transaction as Storage's DB session does: `role` and the JWT claims set
 * locally, so the RLS policies on storage.* decide (service_role bypasses them). Without a caller (signed
 * and public URLs) it runs as the connection's own role, which bypasses RLS, as Storage's superuser.
 */
export function asCaller<T>(
  database: Database,
  caller: Caller | null,
  facts: RequestFacts,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return database.transaction(async (client) => {
    await client.query(SESSION_SETTINGS, sessionValues(caller, facts));
    return work(client);
  });
}

const SESSION_SETTINGS = `select
  set_config('request.headers', $1, true),
  set_config('request.method', $2, true),
  set_config('request.path', $3, true),
  set_config('storage.operation', $4, true),
  set_config('storage.allow_delete_query', 'true', true),
  set_config('request.jwt', $5, true),
  set_config('request.jwt.claims', $6, true),
  set_config('request.jwt.claim.role', $7, true),
  set_config('request.jwt.claim.sub', $8, true),
  case when $7 = '' then null else set_config('role', $7, true) end`;

function sessionValues(caller: Caller | null, facts: RequestFacts): string[] {
  return [
    JSON.stringify(facts.headers),
    facts.method,
    facts.path,
    facts.operation,
    caller?.token ?? '',
    caller ? JSON.stringify(caller.claims) : '',
    caller?.role ?? '',
    caller?.sub ?? '',
  ];
}
