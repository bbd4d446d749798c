import type { Db } from '../db.ts';
import type { ObjectMetadata } from './objects.queries.ts';

/** One entry of a folder listing; a sub-folder has only its name, the rest null. */
export interface ListEntry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: ObjectMetadata | null;
}

export interface ListQuery {
  bucketId: string;
  /** The folder, "" or ending in "/". */
  folder: string;
  search: string;
  limit: number;
  offset: number;
  sortColumn: 'name' | 'updated_at' | 'created_at' | 'last_accessed_at';
  sortOrder: 'asc' | 'desc';
}

/**
 * storage.search(): the objects and sub-folders directly inside `folder` whose names start with `search`
 * (case-insensitively), one entry per sub-folder.
 */
export async function listFolder(db: Db, query: ListQuery): Promise<ListEntry[]> {
  const level = query.folder === '' ? 1 : query.folder.split('/').length;
  const order = query.sortColumn === 'name' ? 'name collate "C"' : query.sortColumn;
  const { rows } = await db.query<ListEntry>(
    `select name, id, updated_at, created_at, last_accessed_at, metadata from (
       select distinct on (path_tokens[$2]) path_tokens[$2] as name,
         case when array_length(path_tokens, 1) = $2 then id end as id,
         case when array_length(path_tokens, 1) = $2 then updated_at end as updated_at,
         case when array_length(path_tokens, 1) = $2 then created_at end as created_at,
         case when array_length(path_tokens, 1) = $2 then last_accessed_at end as last_accessed_at,
         case when array_length(path_tokens, 1) = $2 then metadata end as metadata
       from storage.objects
       where bucket_id = $1 and name ilike $3 escape '\\'
       order by path_tokens[$2], array_length(path_tokens, 1)
     ) entries
     order by ${order} ${query.sortOrder === 'desc' ? 'desc' : 'asc'} nulls last, name collate "C"
     limit $4 offset $5`,
    [query.bucketId, level, `${escapeLike(query.folder + query.search)}%`, query.limit, query.offset],
  );
  return rows;
}

/** `text` as a literal part of a LIKE pattern (escape character `\\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
