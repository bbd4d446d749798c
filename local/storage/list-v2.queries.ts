import type { Db } from '../db.ts';
import { escapeLike } from './list.queries.ts';
import type { ObjectMetadata } from './objects.queries.ts';

/** A row of a v2 listing: an object, or (id null) a folder named without its trailing "/". */
export interface ListV2Row {
  key?: string;
  name: string;
  id: string | null;
  updated_at: Date | null;
  created_at: Date | null;
  last_accessed_at: Date | null;
  metadata: ObjectMetadata | null;
}

export type ListV2SortColumn = 'name' | 'created_at' | 'updated_at';

export interface ListV2Query {
  bucketId: string;
  prefix: string;
  /** Rows to read: one more than the page, to learn whether there is a next one. */
  limit: number;
  sortColumn: ListV2SortColumn;
  sortOrder: 'asc' | 'desc';
  /** The last name of the previous page ("" for the first page). */
  after: string;
  /** The previous page's last value of a timestamp sort column, ISO ("" if none). */
  sortValueAfter: string;
}

/** Storage's flat listing: every object whose name starts with the prefix, no folders. */
export async function listObjectsFlat(db: Db, query: ListV2Query): Promise<ListV2Row[]> {
  const timestamp = query.sortColumn === 'name' ? null : query.sortColumn;
  const direction = query.sortOrder === 'desc' ? 'desc' : 'asc';
  const past = direction === 'asc' ? '>' : '<';
  const values: unknown[] = [query.bucketId, `${escapeLike(query.prefix)}%`, query.limit];
  let cursor = 'true';
  if (query.after !== '' && timestamp && query.sortValueAfter !== '') {
    values.push(query.sortValueAfter, query.after);
    cursor = `row(date_trunc('milliseconds', ${timestamp}), name collate "C") ${past} row($4::timestamptz, $5)`;
  } else if (query.after !== '') {
    values.push(query.after);
    cursor = `name collate "C" ${past} $4`;
  }
  const { rows } = await db.query<ListV2Row>(
    `select id, name, metadata, updated_at, created_at, last_accessed_at
     from storage.objects
     where bucket_id = $1 and name collate "C" like $2 escape '\\' and ${cursor}
     order by ${timestamp ? `${timestamp} ${direction}, ` : ''}name collate "C" ${direction}
     limit $3`,
    values,
  );
  return rows;
}

/**
 * Storage's search_v2 with the "/" delimiter: the objects directly under the prefix and one row per
 * sub-folder (named without its "/"). By name, a folder sorts as its "…/" prefix and a cursor naming a
 * folder resumes after all of it; by a timestamp, a folder carries its first object's created_at.
 */
export async function listObjectsDelimited(db: Db, query: ListV2Query, level: number): Promise<ListV2Row[]> {
  const direction = query.sortOrder === 'desc' ? 'desc' : 'asc';
  const past = direction === 'asc' ? '>' : '<';
  const byName = query.sortColumn === 'name';
  const values: unknown[] = [
    query.bucketId,
    query.prefix,
    `${escapeLike(query.prefix)}%`,
    query.limit,
    level,
  ];
  let cursor = 'true';
  if (query.after !== '' && byName) {
    values.push(query.after);
    cursor = `sort_key collate "C" ${past} (case when exists (
        select from storage.objects o where o.bucket_id = $1 and o.name collate "C" like $6 || '/%'
      ) then $6 || '/' else $6 end)`;
  } else if (query.after !== '') {
    values.push(query.after, query.sortValueAfter || null);
    cursor = `row(date_trunc('milliseconds', ${query.sortColumn}), name collate "C") ${past}
      row(coalesce($7::timestamptz, 'epoch'::timestamptz), $6)`;
  }
  const order = byName
    ? `sort_key collate "C" ${direction}`
    : `coalesce(date_trunc('milliseconds', ${query.sortColumn}), 'epoch'::timestamptz) ${direction},
       name collate "C" ${direction}`;
  const folderTime = byName ? 'null::timestamptz' : 'min(created_at)';
  const { rows } = await db.query<ListV2Row>(
    `with listed as (
       select o.*, case when strpos(substr(o.name, length($2) + 1), '/') > 0
         then left(o.name, length($2) + strpos(substr(o.name, length($2) + 1), '/')) end as folder
       from storage.objects o
       where o.bucket_id = $1 and o.name collate "C" like $3 escape '\\'
     ), entries as (
       select folder as sort_key, rtrim(folder, '/') as name, null::uuid as id,
         ${folderTime} as updated_at, ${folderTime} as created_at,
         null::timestamptz as last_accessed_at, null::jsonb as metadata
       from listed where folder is not null group by folder
       union all
       select name, name, id, updated_at, created_at, last_accessed_at, metadata
       from listed where folder is null
     )
     select split_part(name, '/', $5) as key, name, id, updated_at, created_at, last_accessed_at, metadata
     from entries
     where ${cursor}
     order by ${order}
     limit $4`,
    values,
  );
  return rows;
}
