import type { Db } from '../db.ts';

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

export interface BucketWrite {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

export interface BucketListQuery {
  limit: number | null;
  offset: number;
  search: string;
  sortColumn: 'id' | 'name' | 'created_at' | 'updated_at';
  sortOrder: 'asc' | 'desc';
}

const COLUMNS = `id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, created_at,
  updated_at`;

export async function findBucket(db: Db, id: string): Promise<BucketRow | null> {
  const { rows } = await db.query<BucketRow>(`select ${COLUMNS} from storage.buckets where id = $1`, [id]);
  return rows[0] ?? null;
}

export async function listBuckets(db: Db, query: BucketListQuery): Promise<BucketRow[]> {
  const { rows } = await db.query<BucketRow>(
    `select ${COLUMNS} from storage.buckets where name ilike $1 escape '\\'
     order by ${query.sortColumn} ${query.sortOrder === 'desc' ? 'desc' : 'asc'}
     limit $2 offset $3`,
    [`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, query.limit, query.offset],
  );
  return rows;
}

/** Without RETURNING: creating a bucket needs INSERT only. */
export async function insertBucket(db: Db, write: BucketWrite): Promise<void> {
  await db.query(
    `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      write.id,
      write.name,
      write.owner !== null && /^[0-9a-f-]{36}$/i.test(write.owner) ? write.owner : null,
      write.owner,
      write.public,
      write.fileSizeLimit,
      write.allowedMimeTypes,
    ],
  );
}

/** Changes only what the request names; false when the caller sees no such bucket. */
export async function updateBucket(
  db: Db,
  id: string,
  change: { public?: boolean; fileSizeLimit?: number | null; allowedMimeTypes?: string[] | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update storage.buckets set
       public = case when $2 then $3 else public end,
       file_size_limit = case when $4 then $5 else file_size_limit end,
       allowed_mime_types = case when $6 then $7::text[] else allowed_mime_types end,
       updated_at = now()
     where id = $1`,
    [
      id,
      change.public !== undefined,
      change.public ?? null,
      change.fileSizeLimit !== undefined,
      change.fileSizeLimit ?? null,
      change.allowedMimeTypes !== undefined,
      change.allowedMimeTypes ?? null,
    ],
  );
  return (rowCount ?? 0) > 0;
}

export async function deleteBucket(db: Db, id: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from storage.buckets where id = $1', [id]);
  return (rowCount ?? 0) > 0;
}
