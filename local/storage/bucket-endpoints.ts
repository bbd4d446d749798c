import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { bucketSettings, bucketName } from './bucket-input.ts';
import {
  deleteBucket,
  findBucket,
  insertBucket,
  listBuckets as listBucketRows,
  updateBucket as updateBucketRow,
  type BucketRow,
} from './buckets.queries.ts';
import type { Caller } from './caller.ts';
import type { Endpoint, StorageContext } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { bucketExists, bucketNotEmpty, fromDatabaseError, noSuchBucket } from './errors.ts';
import { countObjects, deleteAllObjects } from './objects.queries.ts';
import { jsonBody } from './request-input.ts';

const FOREIGN_KEY_VIOLATION = '23503';
const SORT_COLUMNS = new Set(['id', 'name', 'created_at', 'updated_at']);

/** Runs `work` as the caller, so RLS on storage.buckets decides (service_role bypasses it). */
async function asBucketCaller<T>(
  context: StorageContext,
  req: IncomingMessage,
  operation: string,
  work: (client: pg.PoolClient, caller: Caller) => Promise<T>,
): Promise<T> {
  const caller = await context.verifyCaller(req);
  try {
    return await asCaller(context.database, caller, requestFacts(req, operation), (client) =>
      work(client, caller),
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) throw bucketNotEmpty();
    throw fromDatabaseError(error, bucketExists) ?? error;
  }
}

/** `GET /bucket?limit&offset&search&sortColumn&sortOrder` */
export const listBuckets: Endpoint = async (context, { req, url }) => {
  const query = url.searchParams;
  const limit = Number(query.get('limit') ?? Number.NaN);
  const sortColumn = query.get('sortColumn') ?? 'name';
  const rows = await asBucketCaller(context, req, 'storage.bucket.list', (client) =>
    listBucketRows(client, {
      limit: Number.isInteger(limit) && limit >= 0 ? limit : null,
      offset: Math.max(0, Math.trunc(Number(query.get('offset') ?? 0)) || 0),
      search: query.get('search') ?? '',
      sortColumn: (SORT_COLUMNS.has(sortColumn) ? sortColumn : 'name') as 'name',
      sortOrder: query.get('sortOrder') === 'desc' ? 'desc' : 'asc',
    }),
  );
  return rows.map(bucketJson);
};

export const getBucket: Endpoint = async (context, { req, params }) => {
  const bucket = await asBucketCaller(context, req, 'storage.bucket.get', (client) =>
    findBucket(client, params.id ?? ''),
  );
  if (!bucket) throw noSuchBucket();
  return singleBucketJson(bucket);
};

/** `POST /bucket` `{id, name, public, file_size_limit, allowed_mime_types}` → `{name}` */
export const createBucket: Endpoint = async (context, { req }) => {
  const body = await jsonBody(req);
  const id = bucketName(body.id ?? body.name);
  const settings = bucketSettings(body);
  await asBucketCaller(context, req, 'storage.bucket.create', (client, caller) =>
    insertBucket(client, {
      id,
      name: typeof body.name === 'string' ? bucketName(body.name) : id,
      owner: caller.sub,
      public: settings.public ?? false,
      fileSizeLimit: settings.fileSizeLimit ?? null,
      allowedMimeTypes: settings.allowedMimeTypes ?? null,
    }),
  );
  return { name: id };
};

export const updateBucket: Endpoint = async (context, { req, params }) => {
  const settings = bucketSettings(await jsonBody(req));
  const updated = await asBucketCaller(context, req, 'storage.bucket.update', (client) =>
    updateBucketRow(client, params.id ?? '', settings),
  );
  if (!updated) throw noSuchBucket();
  return { message: 'Successfully updated' };
};

/** `POST /bucket/{id}/empty`: removes what the caller may (objects SELECT + DELETE), at once. */
export const emptyBucket: Endpoint = async (context, { req, params }) => {
  const bucketId = params.id ?? '';
  const removed = await asBucketCaller(context, req, 'storage.bucket.empty', async (client) => {
    if (!(await findBucket(client, bucketId))) throw noSuchBucket();
    return deleteAllObjects(client, bucketId);
  });
  await Promise.all(removed.map((row) => context.store.remove(bucketId, row.id)));
  return { message: 'Empty bucket has been queued. Completion may take up to an hour.' };
};

/** `DELETE /bucket/{id}`: only an empty bucket goes. */
export const removeBucket: Endpoint = async (context, { req, params }) => {
  const bucketId = params.id ?? '';
  if ((await countObjects(context.database.statements, bucketId)) > 0) throw bucketNotEmpty();
  const deleted = await asBucketCaller(context, req, 'storage.bucket.delete', (client) =>
    deleteBucket(client, bucketId),
  );
  if (!deleted) throw noSuchBucket();
  return { message: 'Successfully deleted' };
};

/**
 * A bucket as Storage's single-bucket read answers it: only the columns that route selects (no `owner_id`,
 * no `type`), and a null `owner` written as "" by its response serializer, as a non-nullable string.
 */
function singleBucketJson(bucket: BucketRow) {
  return {
    id: bucket.id,
    name: bucket.name,
    owner: bucket.owner ?? '',
    public: bucket.public,
    file_size_limit: bucket.file_size_limit === null ? null : Number(bucket.file_size_limit),
    allowed_mime_types: bucket.allowed_mime_types,
    created_at: bucket.created_at,
    updated_at: bucket.updated_at,
  };
}

function bucketJson(bucket: BucketRow) {
  return {
    ...bucket,
    type: 'STANDARD',
    file_size_limit: bucket.file_size_limit === null ? null : Number(bucket.file_size_limit),
  };
}
