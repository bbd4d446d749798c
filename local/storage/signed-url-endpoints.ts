import { randomUUID } from 'node:crypto';
import type { Endpoint } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { fromDatabaseError, invalidRequest, objectExists } from './errors.ts';
import { bucketForObjects } from './object-bucket.ts';
import { visibleObject } from './object-reads.ts';
import { findObjects, insertObject, upsertObject } from './objects.queries.ts';
import { jsonBody, objectKey, positiveInteger } from './request-input.ts';

const NOT_VISIBLE = 'Either the object does not exist or you do not have access to it';

/** `POST /object/sign/{bucket}/{path}` `{expiresIn}`: a download URL for an object the caller can SELECT. */
export const createSignedUrl: Endpoint = async (context, request) => {
  const expiresIn = positiveInteger((await jsonBody(request.req)).expiresIn, 'expiresIn');
  const object = await visibleObject(context, request, 'storage.object.sign');
  const url = `${object.bucket_id}/${object.name}`;
  const token = await context.urlTokens.sign({ url, scope: 'download' }, expiresIn);
  return { signedURL: `/object/sign/${url}?token=${token}` };
};

/** `POST /object/sign/{bucket}` `{expiresIn, paths}`: one URL, or an error, per path. */
export const createSignedUrls: Endpoint = async (context, { req, params }) => {
  const body = await jsonBody(req);
  const expiresIn = positiveInteger(body.expiresIn, 'expiresIn');
  const paths = body.paths;
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) {
    throw invalidRequest("body must have property 'paths'");
  }
  const caller = await context.verifyCaller(req);
  const bucketId = params.bucket ?? '';
  const found = await asCaller(
    context.database,
    caller,
    requestFacts(req, 'storage.object.sign_many'),
    (client) => findObjects(client, bucketId, paths),
  );
  const visible = new Set(found.map((object) => object.name));
  return Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) return { error: NOT_VISIBLE, path, signedURL: null };
      const token = await context.urlTokens.sign(
        { url: `${bucketId}/${path}`, scope: 'download' },
        expiresIn,
      );
      return { error: null, path, signedURL: `/object/sign/${bucketId}/${path}?token=${token}` };
    }),
  );
};

/**
 * `POST /object/upload/sign/{bucket}/{path}`: an upload URL, once a trial insert (rolled back) shows the
 * caller may write the object, as Storage's canUpload; `x-upsert: true` lets the upload replace it.
 */
export const createSignedUploadUrl: Endpoint = async (context, { req, params }) => {
  const caller = await context.verifyCaller(req);
  const bucket = await bucketForObjects(context.database, params.bucket ?? '');
  const name = objectKey(params.path);
  const upsert = req.headers['x-upsert'] === 'true';
  const trial = {
    id: randomUUID(),
    bucketId: bucket.id,
    name,
    owner: caller.sub,
    metadata: null,
    userMetadata: null,
  };
  try {
    await asCaller(
      context.database,
      caller,
      requestFacts(req, 'storage.object.upload_sign'),
      async (client) => {
        await client.query('savepoint can_upload');
        await (upsert ? upsertObject(client, trial) : insertObject(client, trial));
        await client.query('rollback to savepoint can_upload');
      },
    );
  } catch (error) {
    throw fromDatabaseError(error, objectExists) ?? error;
  }
  const url = `${bucket.id}/${name}`;
  const claims = { url, scope: 'upload' as const, upsert, ...(caller.sub ? { owner: caller.sub } : {}) };
  const token = await context.urlTokens.sign(claims, context.uploadUrlExpiresInSeconds);
  return { url: `/object/upload/sign/${url}?token=${token}`, token };
};
