import type { Endpoint, StorageContext, StorageRequest } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { noSuchBucket, noSuchKey } from './errors.ts';
import { bucketForObjects } from './object-bucket.ts';
import { sendObject } from './object-response.ts';
import { findObject, type ObjectRow } from './objects.queries.ts';
import { objectKey } from './request-input.ts';

/** `GET /object/{bucket}/{path}` (and `/object/authenticated/…`): the bytes, if RLS lets the caller SELECT. */
export const downloadObject: Endpoint = async (context, request) => {
  const object = await visibleObject(context, request, 'storage.object.get_authenticated');
  await sendObject(context.store, request.req, request.res, request.url, object);
};

/** `GET /object/info/{bucket}/{path}`: the object's facts (storage-js camel-cases them). */
export const objectInfo: Endpoint = async (context, request) => {
  const object = await visibleObject(context, request, 'storage.object.info');
  return {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: object.metadata?.size ?? null,
    content_type: object.metadata?.mimetype ?? null,
    cache_control: object.metadata?.cacheControl ?? null,
    etag: object.metadata?.eTag ?? null,
    metadata: object.user_metadata ?? {},
    last_modified: object.metadata?.lastModified ?? object.updated_at,
    created_at: object.created_at,
  };
};

/** `GET /object/public/{bucket}/{path}`: any object of a public bucket, no credentials, no RLS. */
export const downloadPublicObject: Endpoint = async (context, { req, res, url, params }) => {
  const bucket = await bucketForObjects(context.database, params.bucket ?? '');
  if (!bucket.public) throw noSuchBucket();
  const object = await findObject(context.database.statements, bucket.id, objectKey(params.path));
  if (!object) throw noSuchKey();
  await sendObject(context.store, req, res, url, object);
};

/** `GET /object/sign/{bucket}/{path}?token=`: the object the token names, no credentials, no RLS. */
export const downloadSignedObject: Endpoint = async (context, { req, res, url, params }) => {
  const bucketId = params.bucket ?? '';
  const name = objectKey(params.path);
  await context.urlTokens.verify(url.searchParams.get('token'), 'download', `${bucketId}/${name}`);
  const object = await findObject(context.database.statements, bucketId, name);
  if (!object) throw noSuchKey();
  await sendObject(context.store, req, res, url, object);
};

/** The object the route names, read as the caller: NoSuchKey when it is missing or RLS hides it. */
export async function visibleObject(
  context: StorageContext,
  { req, params }: StorageRequest,
  operation: string,
): Promise<ObjectRow> {
  const caller = await context.verifyCaller(req);
  const bucketId = params.bucket ?? '';
  const name = objectKey(params.path);
  const object = await asCaller(context.database, caller, requestFacts(req, operation), (client) =>
    findObject(client, bucketId, name),
  );
  if (!object) throw noSuchKey();
  return object;
}
