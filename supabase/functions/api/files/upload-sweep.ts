/**
 * The sweep of uploads left behind (docs/product.md#states: pending attachments are cleaned up;
 * docs/decisions/0024). SQL forgets pending uploads past their window (private.sweep_attachment_uploads,
 * sweep_avatar_uploads), whose objects triggers queue for removal, and queues the objects no row names (a PUT
 * to an upload URL after its attachment went); then the queue is drained (storage-removals.ts): only Storage
 * may delete objects, so they are removed through it, and so are removals that failed before.
 *
 * It runs in the API itself, so that it needs no scheduler of its own on hosted Supabase nor in the
 * stand-in: each function instance sweeps one batch when it issues an upload URL, at most once every
 * SWEEP_INTERVAL_MS. Nothing depends on it running promptly: an expired pending attachment no longer
 * counts towards the limits, nor can it be completed; the sweep frees the space.
 */
import type { Database } from '../../_shared/db.ts';
import type { FileStore } from './file-store.ts';
import { drainStorageRemovals } from './storage-removals.ts';
import { queueSweptObjects } from './storage-removals.queries.ts';

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
export const SWEEP_BATCH = 100;

export interface SweepResult {
  /** Objects the sweep queued for removal, by bucket: of uploads past their window, or named by no row. */
  queued: { attachments: number; avatars: number };
  /** Objects removed from Storage by the drain that follows, whoever queued them. */
  removed: number;
}

/** Sweeps one batch of each bucket and drains the queue, as the service. */
export async function sweepExpiredUploads(
  db: Database,
  files: FileStore,
  batch = SWEEP_BATCH,
): Promise<SweepResult> {
  const queued = await db.serviceStatements((sql) => queueSweptObjects(sql, batch));
  const removed = await drainStorageRemovals(db, files);
  if (queued.attachments + queued.avatars + removed > 0) {
    files.logger.info('swept uploads', { ...queued, removed });
  }
  return { queued, removed };
}

/**
 * `sweepExpiredUploads` at most once every `intervalMs` in this instance; a failure is logged and tried
 * again next time, never the request's.
 */
export function uploadSweeper(db: Database, files: FileStore, intervalMs = SWEEP_INTERVAL_MS) {
  let lastRun = Number.NEGATIVE_INFINITY;
  return async (): Promise<void> => {
    const now = Date.now();
    if (now - lastRun < intervalMs || files.storage === undefined) return;
    lastRun = now;
    try {
      await sweepExpiredUploads(db, files);
    } catch (error) {
      files.logger.warn('could not sweep uploads', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
}
