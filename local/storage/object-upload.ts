import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Caller } from './caller.ts';
import type { Endpoint, StorageContext } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { fromDatabaseError, objectExists } from './errors.ts';
import { maxObjectSize } from './limits.ts';
import { bucketForObjects } from './object-bucket.ts';
import { insertObject, upsertObject, type ObjectMetadata } from './objects.queries.ts';
import { objectKey } from './request-input.ts';
import { receiveUpload, type UploadBody } from './upload-body.ts';

interface UploadTarget {
  bucketId: string;
  name: string;
  /** The user id the row records (`sub` of the caller, or the `owner` of an upload token). */
  owner: string | null;
  upsert: boolean;
  /** Null for signed upload URLs, which write as Storage's superuser. */
  caller: Caller | null;
  operation: string;
}

const EMPTY_FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder';

/** `POST /object/{bucket}/{path}`: a new object, or with `x-upsert: true` a replaced one. */
export const uploadObject: Endpoint = async (context, { req, params }) => {
  const caller = await context.verifyCaller(req);
  const name = objectKey(params.path);
  const target = { bucketId: params.bucket ?? '', name, owner: caller.sub, caller };
  const upsert = req.headers['x-upsert'] === 'true';
  const id = await storeObject(context, req, { ...target, upsert, operation: 'storage.object.upload' });
  return { Id: id, Key: `${target.bucketId}/${name}` };
};

/** `PUT /object/{bucket}/{path}`: Storage's "overriding" upload, an upsert. */
export const updateObject: Endpoint = async (context, { req, params }) => {
  const caller = await context.verifyCaller(req);
  const name = objectKey(params.path);
  const target = { bucketId: params.bucket ?? '', name, owner: caller.sub, caller };
  const id = await storeObject(context, req, { ...target, upsert: true, operation: 'storage.object.update' });
  return { Id: id, Key: `${target.bucketId}/${name}` };
};

/** `PUT /object/upload/sign/{bucket}/{path}?token=`: no credentials but the token, whose claims decide. */
export const uploadToSignedUrl: Endpoint = async (context, { req, url, params }) => {
  const bucketId = params.bucket ?? '';
  const name = objectKey(params.path);
  const claims = await context.urlTokens.verify(
    url.searchParams.get('token'),
    'upload',
    `${bucketId}/${name}`,
  );
  await storeObject(context, req, {
    bucketId,
    name,
    owner: claims.owner ?? null,
    upsert: claims.upsert === true,
    caller: null,
    operation: 'storage.object.upload_signed',
  });
  return { Key: `${bucketId}/${name}` };
};

/**
 * Bytes to a temporary file, then the row (as the caller, so RLS decides), then the file renamed into
 * place, all before the transaction commits: a refused row leaves no bytes behind.
 */
async function storeObject(
  context: StorageContext,
  req: IncomingMessage,
  target: UploadTarget,
): Promise<string> {
  const bucket = await bucketForObjects(context.database, target.bucketId);
  const checked = !target.name.endsWith(EMPTY_FOLDER_PLACEHOLDER);
  const maxSize = maxObjectSize(bucket, context.fileSizeLimit);
  const upload = await receiveUpload(req, context.store, { bucket, maxSize, checked });
  const facts = requestFacts(req, target.operation);
  try {
    return await asCaller(context.database, target.caller, facts, async (client) => {
      const write = {
        id: randomUUID(),
        bucketId: bucket.id,
        name: target.name,
        owner: target.owner,
        metadata: metadataOf(upload),
        userMetadata: upload.userMetadata,
      };
      const id = target.upsert ? await upsertObject(client, write) : write.id;
      if (!target.upsert) await insertObject(client, write);
      await context.store.commit(upload.blob, bucket.id, id);
      return id;
    });
  } catch (error) {
    throw fromDatabaseError(error, objectExists) ?? error;
  } finally {
    await context.store.discard(upload.blob);
  }
}

function metadataOf(upload: UploadBody): ObjectMetadata {
  return {
    eTag: upload.blob.eTag,
    size: upload.blob.size,
    mimetype: upload.mimeType,
    cacheControl: upload.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: upload.blob.size,
    httpStatusCode: 200,
    ...(upload.contentEncoding ? { contentEncoding: upload.contentEncoding } : {}),
  };
}
