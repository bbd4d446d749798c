import type { Db } from '../db.ts';
import type { AuthorizationRequest, Extension } from './authorization-request.ts';

/** As the database owner: one probe row per extension on the topic; returns their ids. */
export async function insertProbes(
  db: Db,
  topic: string,
  extensions: Extension[],
): Promise<{ id: string; extension: Extension }[]> {
  const { rows } = await db.query<{ id: string; extension: Extension }>(
    `insert into realtime.messages (topic, extension, private)
     select $1, extension, true from unnest($2::text[]) as extension
     returning id, extension`,
    [topic, extensions],
  );
  return rows;
}

/**
 * Becomes the requester for the rest of the transaction, as Realtime sets up an authorization check
 * (docs/supabase-protocols.md#authorization-of-private-channels): the JWT's role, its claims, and the
 * channel's topic for realtime.topic().
 */
export async function becomeRequester(db: Db, request: AuthorizationRequest): Promise<void> {
  await db.query(
    `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.role', $1, true),
            set_config('request.headers', $4, true),
            set_config('realtime.topic', $5, true)`,
    [
      request.claims.role,
      JSON.stringify(request.claims),
      typeof request.claims.sub === 'string' ? request.claims.sub : '',
      JSON.stringify(request.headers),
      request.subTopic,
    ],
  );
}

/** The probes the requester's SELECT policies let it see. */
export async function visibleProbes(db: Db, ids: string[]): Promise<Extension[]> {
  const { rows } = await db.query<{ extension: Extension }>(
    'select extension from realtime.messages where id = any($1::uuid[])',
    [ids],
  );
  return rows.map((row) => row.extension);
}

/** As the requester: the row a send or a track would write, which the INSERT policies accept or refuse. */
export async function insertAsRequester(db: Db, topic: string, extension: Extension): Promise<void> {
  await db.query('insert into realtime.messages (topic, extension, private) values ($1, $2, true)', [
    topic,
    extension,
  ]);
}
