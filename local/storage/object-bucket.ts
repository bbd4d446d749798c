import type { Database } from '../db.ts';
import { findBucket, type BucketRow } from './buckets.queries.ts';
import { noSuchBucket } from './errors.ts';

/**
 * The bucket an object call names, read as Storage's superuser (object calls need no permission on
 * storage.buckets): its limits apply whoever calls.
 */
export async function bucketForObjects(database: Database, bucketId: string): Promise<BucketRow> {
  const bucket = await findBucket(database.statements, bucketId);
  if (!bucket) throw noSuchBucket();
  return bucket;
}
