import { randomUUID } from 'node:crypto';
import type { Endpoint } from './context.ts';
import { asCaller, requestFacts } from './db-session.ts';
import { fromDatabaseError, invalidRequest, noSuchKey, objectExists } from './errors.ts';
import { bucketForObjects } from './object-bucket.ts';
import { deleteObjects, findObject, insertObject, moveObject } from './objects.queries.ts';
import { jsonBody, objectKey, stringField } from './request-input.ts';

/**
 * `DELETE /object/{bucket}` `{prefixes}`: the rows the caller may SELECT and DELETE go, then their bytes;
 * the answer lists them (others are simply absent).
 */
export const removeObjects: Endpoint = async (context, { req, params }) => {
  const prefixes = (await jsonBody(req)).prefixes;
  if (!Array.isArray(prefixes) || !prefixes.every((prefix) => typeof prefix === 'string')) {
    throw invalidRequest("body must have property 'prefixes'");
  }
  const caller = await context.verifyCaller(req);
  const removed = await asCaller(
    context.database,
    caller,
    requestFacts(req, 'storage.object.delete_many'),
    (client) => deleteObjects(client, params.bucket ?? '', prefixes),
  );
  await Promise.all(removed.map((row) => context.store.remove(row.bucket_id, row.id)));
  return removed;
};

interface Relocation {
  bucketId: string;
  sourceKey: string;
  destinationBucket: string;
  destinationKey: string;
}

function relocation(body: Record<string, unknown>): Relocation {
  const bucketId = stringField(body, 'bucketId');
  const destination = body.destinationBucket;
  return {
    bucketId,
    sourceKey: objectKey(body.sourceKey),
    destinationBucket: typeof destination === 'string' && destination !== '' ? destination : bucketId,
    destinationKey: objectKey(body.destinationKey),
  };
}

/** `POST /object/move`: renames the row (SELECT + UPDATE), then moves the bytes if the bucket changed. */
export const moveObjectEndpoint: Endpoint = async (context, { req }) => {
  const move = relocation(await jsonBody(req));
  const caller = await context.verifyCaller(req);
  await bucketForObjects(context.database, move.destinationBucket);
  try {
    await asCaller(context.database, caller, requestFacts(req, 'storage.object.move'), async (client) => {
      const id = await moveObject(
        client,
        { bucketId: move.bucketId, name: move.sourceKey },
        { bucketId: move.destinationBucket, name: move.destinationKey },
      );
      if (!id) throw noSuchKey();
      await context.store.move(id, move.bucketId, move.destinationBucket);
    });
  } catch (error) {
    throw fromDatabaseError(error, objectExists) ?? error;
  }
  return { message: 'Successfully moved' };
};

/** `POST /object/copy`: a new row (SELECT on the source, INSERT of the copy) and a copy of the bytes. */
export const copyObjectEndpoint: Endpoint = async (context, { req }) => {
  const body = await jsonBody(req);
  const copy = relocation(body);
  const caller = await context.verifyCaller(req);
  await bucketForObjects(context.database, copy.destinationBucket);
  const id = randomUUID();
  try {
    await asCaller(context.database, caller, requestFacts(req, 'storage.object.copy'), async (client) => {
      const source = await findObject(client, copy.bucketId, copy.sourceKey);
      if (!source) throw noSuchKey();
      const keepMetadata = body.copyMetadata !== false;
      await insertObject(client, {
        id,
        bucketId: copy.destinationBucket,
        name: copy.destinationKey,
        owner: caller.sub,
        metadata: source.metadata,
        userMetadata: keepMetadata ? source.user_metadata : (body.metadata ?? null),
      });
      await context.store.copy(
        { bucket: source.bucket_id, id: source.id },
        { bucket: copy.destinationBucket, id },
      );
    });
  } catch (error) {
    throw fromDatabaseError(error, objectExists) ?? error;
  }
  return { Id: id, Key: `${copy.destinationBucket}/${copy.destinationKey}` };
};
