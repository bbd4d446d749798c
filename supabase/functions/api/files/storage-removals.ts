/**
 * Removing from Storage the objects nothing uses any more (docs/decisions/0024). The database queues them
 * (private.storage_removals) in the transaction that stops using them: an attachment deleted, alone or with
 * its task, project or workspace; an avatar replaced or removed. Only Storage may delete an object, so the
 * API removes them, as the service: a request that queued some removes them after its answer, and the
 * upload sweep drains whatever is due, so a removal that failed (Storage down) is made later. At least once:
 * a row goes only once Storage removed its object, and removing an object twice is no error.
 */
import { runAfterResponse } from '../../_shared/after-response.ts';
import type { Database } from '../../_shared/db.ts';
import { describeError } from '../../_shared/describe-error.ts';
import { removeObjects, type FileStore } from './file-store.ts';
import {
  claimStorageRemovals,
  forgetRemovalsOf,
  forgetStorageRemovals,
  type QueuedRemoval,
} from './storage-removals.queries.ts';

/** Objects claimed at a time, and removed in one call to Storage per bucket. */
export const REMOVAL_BATCH = 100;
/** Batches one drain takes at most, so that a request's work after its answer stays bounded. */
const BATCHES_PER_DRAIN = 10;
const STAY_QUEUED = 'they stay queued';

/**
 * Removes the objects the request itself just queued, known by their paths, at once (the answer says they
 * went); then, after the answer, forgets them and drains what else is due. Never throws.
 */
export async function removeQueuedObjects(
  db: Database,
  files: FileStore,
  bucket: string,
  paths: readonly string[],
): Promise<void> {
  if (files.storage === undefined || paths.length === 0) return;
  const removed = await removeObjects(files, bucket, paths, STAY_QUEUED);
  void runAfterResponse(
    () => drain(db, files, removed ? { bucket, paths } : undefined),
    (error) => notDrained(files, error),
  );
}

/** Drains the queue after the answer: for a request whose deletions queued objects it does not know. */
export function drainAfterAnswer(db: Database, files: FileStore): void {
  if (files.storage === undefined) return;
  void runAfterResponse(
    () => drain(db, files),
    (error) => notDrained(files, error),
  );
}

/** Removes what is due, batch by batch; how many objects went. Storage failing stops it, rows stay due. */
export function drainStorageRemovals(db: Database, files: FileStore): Promise<number> {
  return files.storage === undefined ? Promise.resolve(0) : drain(db, files);
}

async function drain(db: Database, files: FileStore, removed?: { bucket: string; paths: readonly string[] }) {
  // What the request removed itself is forgotten in the round trip of the first claim.
  let claimed = await db.serviceStatements(async (sql) => {
    const [, due] = await Promise.all([
      removed ? forgetRemovalsOf(sql, removed.bucket, removed.paths) : undefined,
      claimStorageRemovals(sql, REMOVAL_BATCH),
    ]);
    return due;
  });
  let count = 0;
  for (let batch = 1; claimed.length > 0; batch += 1) {
    const done = await removeClaimed(files, claimed);
    count += done.length;
    if (done.length === 0) break;
    // Storage failing for some stops the drain: the next batch would likely fail too.
    const more = done.length === claimed.length && batch < BATCHES_PER_DRAIN;
    claimed = await db.serviceStatements(async (sql) => {
      const [, due] = await Promise.all([
        forgetStorageRemovals(sql, done),
        more ? claimStorageRemovals(sql, REMOVAL_BATCH) : [],
      ]);
      return due;
    });
  }
  return count;
}

/** Removes the claimed objects, one call per bucket; the ids of the rows whose objects went. */
async function removeClaimed(files: FileStore, claimed: readonly QueuedRemoval[]): Promise<string[]> {
  const byBucket = new Map<string, QueuedRemoval[]>();
  for (const row of claimed) byBucket.set(row.bucket_id, [...(byBucket.get(row.bucket_id) ?? []), row]);
  const done: string[] = [];
  for (const [bucket, rows] of byBucket) {
    const paths = rows.map((row) => row.object_path);
    if (await removeObjects(files, bucket, paths, STAY_QUEUED)) done.push(...rows.map((row) => row.id));
  }
  return done;
}

function notDrained(files: FileStore, error: unknown): void {
  files.logger.warn('could not drain the queue of objects to remove', describeError(error));
}
