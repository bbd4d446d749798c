import type { Endpoint } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { invalidRequest } from './errors.ts';
import { listFolder, type ListQuery } from './list.queries.ts';
import { jsonBody } from './request-input.ts';

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);
const DEFAULT_LIMIT = 100;

/** `POST /object/list/{bucket}` `{prefix, limit, offset, sortBy, search}`: a folder's entries the caller can SELECT. */
export const listObjects: Endpoint = async (context, { req, params }) => {
  const body = await jsonBody(req);
  const caller = await context.verifyCaller(req);
  const query = listQuery(params.bucket ?? '', body);
  return asCaller(context.database, caller, requestFacts(req, 'storage.object.list'), (client) =>
    listFolder(client, query),
  );
};

function listQuery(bucketId: string, body: Record<string, unknown>): ListQuery {
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const sortColumn = typeof sortBy.column === 'string' ? sortBy.column : 'name';
  if (!SORT_COLUMNS.has(sortColumn)) throw invalidRequest(`cannot sort by ${sortColumn}`);
  return {
    bucketId,
    folder: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    search: typeof body.search === 'string' ? body.search : '',
    limit: wholeNumber(body.limit, DEFAULT_LIMIT),
    offset: wholeNumber(body.offset, 0),
    sortColumn: sortColumn as ListQuery['sortColumn'],
    sortOrder: sortBy.order === 'desc' ? 'desc' : 'asc',
  };
}

function wholeNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}
