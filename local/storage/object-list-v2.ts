import type { Endpoint } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { notFound } from './errors.ts';
import { decodeListV2Cursor, encodeListV2Cursor, type ListV2Cursor } from './list-v2-cursor.ts';
import {
  listObjectsDelimited,
  listObjectsFlat,
  type ListV2Query,
  type ListV2Row,
  type ListV2SortColumn,
} from './list-v2.queries.ts';
import { listV2Request, type ListV2Request } from './list-v2-request.ts';
import { jsonBody } from './request-input.ts';

const MAX_KEYS = 1000;
const DELIMITER = '/';

interface ListV2Page {
  hasNext: boolean;
  nextCursor?: string;
  nextCursorKey?: string;
  folders: ListV2Row[];
  objects: ListV2Row[];
}

/**
 * `POST /object/list-v2/{bucket}` `{prefix, limit, cursor, with_delimiter, sortBy}`: one page of the objects
 * (and, with the delimiter, folders) the caller can SELECT, as Storage's listObjectsV2 answers it.
 */
export const listObjectsV2: Endpoint = async (context, { req, params }) => {
  const request = listV2Request(await jsonBody(req));
  const caller = await context.verifyCaller(req);
  const cursor = request.cursor ? decodeListV2Cursor(request.cursor) : undefined;
  const limit = Math.min(request.limit ?? MAX_KEYS, MAX_KEYS);
  const prefix = request.prefix ?? '';
  const query = listQuery(params.bucket ?? '', prefix, limit + 1, request, cursor);
  const level = prefix === '' ? 1 : prefix.split(DELIMITER).length;
  const rows = await asCaller(
    context.database,
    caller,
    requestFacts(req, 'storage.object.list_v2'),
    (client) =>
      request.with_delimiter ? listObjectsDelimited(client, query, level) : listObjectsFlat(client, query),
  );
  const listed = request.with_delimiter ? groupByDelimiter(rows, prefix) : rows;
  return page(
    listed,
    limit,
    cursor?.sortOrder || request.sortBy?.order,
    cursor?.sortColumn || request.sortBy?.column,
  );
};

/** Refuses what `POST /object/{bucket}/{*path}` would otherwise take for an upload into a bucket "list-v2". */
export const notAnUpload: Endpoint = () => Promise.reject(notFound());

function listQuery(
  bucketId: string,
  prefix: string,
  limit: number,
  request: ListV2Request,
  cursor: ListV2Cursor | undefined,
): ListV2Query {
  const column = cursor?.sortColumn || request.sortBy?.column;
  const order = cursor?.sortOrder || request.sortBy?.order;
  return {
    bucketId,
    prefix,
    limit,
    sortColumn: column === 'created_at' || column === 'updated_at' ? column : 'name',
    sortOrder: order === 'desc' ? 'desc' : 'asc',
    after: cursor?.after ?? '',
    sortValueAfter: cursor?.sortValueAfter ?? '',
  };
}

/** Storage's pass over delimited rows: a row whose rest of name still holds "/" stands for its folder. */
function groupByDelimiter(rows: ListV2Row[], prefix: string): ListV2Row[] {
  const grouped: ListV2Row[] = [];
  let previousFolder = '';
  for (const row of rows) {
    const at = row.name.replace(prefix, '').indexOf(DELIMITER);
    if (at < 0) {
      grouped.push(row);
      continue;
    }
    const folder = row.name.substring(0, prefix.length + at + DELIMITER.length);
    if (folder === previousFolder) continue;
    previousFolder = folder;
    grouped.push({ id: null, name: folder } as ListV2Row);
  }
  return grouped;
}

function page(
  rows: ListV2Row[],
  limit: number,
  sortOrder: string | undefined,
  sortColumn: string | undefined,
): ListV2Page {
  const hasNext = rows.length > limit;
  const shown = rows.slice(0, limit);
  const folders = shown
    .filter((row) => row.id === null)
    .map((row) => ({ ...row, name: row.name.endsWith(DELIMITER) ? row.name : `${row.name}${DELIMITER}` }));
  const objects = shown.filter((row) => row.id !== null);
  const last = shown.at(-1);
  if (!hasNext || !last) return { hasNext, folders, objects };
  const sortValue = sortColumn && sortColumn !== 'name' ? last[sortColumn as ListV2SortColumn] : null;
  const nextCursor = encodeListV2Cursor({
    after: last.name,
    sortOrder,
    sortColumn,
    sortValueAfter: sortValue ? new Date(sortValue).toISOString() : undefined,
  });
  return { hasNext, nextCursor, nextCursorKey: last.name, folders, objects };
}
