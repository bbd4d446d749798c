import { invalidRequest } from './errors.ts';

/** The body of `POST /object/list-v2/{bucket}`, as Storage's route schema admits it. */
export interface ListV2Request {
  prefix?: string;
  limit?: number;
  cursor?: string;
  with_delimiter?: boolean;
  sortBy?: { column: 'name' | 'updated_at' | 'created_at'; order?: 'asc' | 'desc' };
}

const SORT_COLUMNS = ['name', 'updated_at', 'created_at'];
const SORT_ORDERS = ['asc', 'desc'];

/** Checks `body` as Storage's JSON schema does; a refusal names the first field, as Fastify words it. */
export function listV2Request(body: Record<string, unknown>): ListV2Request {
  const { prefix, limit, cursor, with_delimiter: withDelimiter, sortBy } = body;
  if (prefix !== undefined && typeof prefix !== 'string') throw refused('prefix must be string');
  if (limit !== undefined) {
    if (typeof limit !== 'number' || !Number.isInteger(limit)) throw refused('limit must be integer');
    if (limit < 1) throw refused('limit must be >= 1');
  }
  if (cursor !== undefined && typeof cursor !== 'string') throw refused('cursor must be string');
  if (withDelimiter !== undefined && typeof withDelimiter !== 'boolean') {
    throw refused('with_delimiter must be boolean');
  }
  return { prefix, limit, cursor, with_delimiter: withDelimiter, sortBy: sortByField(sortBy) };
}

function sortByField(sortBy: unknown): ListV2Request['sortBy'] {
  if (sortBy === undefined) return undefined;
  if (sortBy === null || typeof sortBy !== 'object' || Array.isArray(sortBy)) {
    throw refused('sortBy must be object');
  }
  const { column, order } = sortBy as Record<string, unknown>;
  if (column === undefined) throw refused("sortBy must have required property 'column'");
  if (typeof column !== 'string' || !SORT_COLUMNS.includes(column)) {
    throw refused('sortBy/column must be equal to one of the allowed values');
  }
  if (order !== undefined && (typeof order !== 'string' || !SORT_ORDERS.includes(order))) {
    throw refused('sortBy/order must be equal to one of the allowed values');
  }
  return sortBy as ListV2Request['sortBy'];
}

const refused = (problem: string) => invalidRequest(`body/${problem}`);
