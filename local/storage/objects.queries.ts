import type { Db } from '../db.ts';

/** A row of storage.objects as Storage answers it (remove's array, info's source). */
export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
  metadata: ObjectMetadata | null;
  user_metadata: unknown;
}

/** `storage.objects.metadata` as Storage writes it. */
export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
  contentEncoding?: string;
}

/** What an upload writes into a row. */
export interface ObjectWrite {
  id: string;
  bucketId: string;
  name: string;
  owner: string | null;
  metadata: ObjectMetadata | null;
  userMetadata: unknown;
}

const COLUMNS = `id, bucket_id, name, owner, owner_id, version, created_at, updated_at, last_accessed_at,
  metadata, user_metadata`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findObject(db: Db, bucketId: string, name: string): Promise<ObjectRow | null> {
  const { rows } = await db.query<ObjectRow>(
    `select ${COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucketId, name],
  );
  return rows[0] ?? null;
}

export async function findObjects(db: Db, bucketId: string, names: string[]): Promise<ObjectRow[]> {
  const { rows } = await db.query<ObjectRow>(
    `select ${COLUMNS} from storage.objects where bucket_id = $1 and name = any($2::text[])`,
    [bucketId, names],
  );
  return rows;
}

/** A new row, without RETURNING: an upload needs INSERT only, not SELECT on what it wrote. */
export async function insertObject(db: Db, write: ObjectWrite): Promise<void> {
  await db.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
     values ($1, $2, $3, $4, $5, $6, $7, gen_random_uuid()::text)`,
    writeValues(write),
  );
}

/** Insert, or overwrite the row at the same name (SELECT + INSERT + UPDATE); returns the row's id. */
export async function upsertObject(db: Db, write: ObjectWrite): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
     values ($1, $2, $3, $4, $5, $6, $7, gen_random_uuid()::text)
     on conflict (bucket_id, name) do update set
       owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
       user_metadata = excluded.user_metadata, version = excluded.version,
       updated_at = now(), last_accessed_at = now()
     returning id`,
    writeValues(write),
  );
  return rows[0]?.id ?? write.id;
}

function writeValues(write: ObjectWrite): unknown[] {
  const owner = write.owner !== null && UUID.test(write.owner) ? write.owner : null;
  return [write.id, write.bucketId, write.name, owner, write.owner, write.metadata, write.userMetadata];
}

export async function deleteObjects(db: Db, bucketId: string, names: string[]): Promise<ObjectRow[]> {
  const { rows } = await db.query<ObjectRow>(
    `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${COLUMNS}`,
    [bucketId, names],
  );
  return rows;
}

export async function deleteAllObjects(db: Db, bucketId: string): Promise<{ id: string }[]> {
  const { rows } = await db.query<{ id: string }>(
    'delete from storage.objects where bucket_id = $1 returning id',
    [bucketId],
  );
  return rows;
}

/** Renames (and maybe re-buckets) a row (SELECT + UPDATE); null when the caller sees no such row. */
export async function moveObject(
  db: Db,
  from: { bucketId: string; name: string },
  to: { bucketId: string; name: string },
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
     where bucket_id = $1 and name = $2 returning id`,
    [from.bucketId, from.name, to.bucketId, to.name],
  );
  return rows[0]?.id ?? null;
}

export async function countObjects(db: Db, bucketId: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    'select count(*) from storage.objects where bucket_id = $1',
    [bucketId],
  );
  return Number(rows[0]?.count ?? 0);
}
