/**
 * The sweep of uploads left behind (SPEC §4: pending attachments older than an hour are cleaned up;
 * docs/decisions/0024). SQL forgets them (private.sweep_attachment_uploads, sweep_avatar_uploads) and
 * answers the objects to remove, with those no row names any more (a deleted task's files, replaced
 * avatars, removals that failed); only Storage may delete objects, so they are removed through it.
 *
 * It runs in the API itself, so that it needs no scheduler of its own on hosted Supabase nor in the
 * stand-in: each function instance sweeps one batch when it issues an upload URL, at most once every
 * SWEEP_INTERVAL_MS. Nothing depends on it running promptly: an expired pending attachment no longer
 * counts towards the limit, nor can it be completed; the sweep only frees the space.
 */
import type { Database } from '../../_shared/db.ts';
import { removeObjects, type FileStore } from './file-store.ts';

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
export const SWEEP_BATCH = 100;

export interface SweepResult {
  /** Objects of the attachments bucket removed (or handed to Storage to remove). */
  attachments: number;
  avatars: number;
}

/** Sweeps one batch of each bucket, as the service. */
export async function sweepExpiredUploads(
  db: Database,
  files: FileStore,
  batch = SWEEP_BATCH,
): Promise<SweepResult> {
  const [attachments, avatars] = await db.serviceRoundTrip((sql) =>
    Promise.all([
      sql.query<{ object_path: string }>('select object_path from private.sweep_attachment_uploads($1)', [
        batch,
      ]),
      sql.query<{ object_path: string }>('select object_path from private.sweep_avatar_uploads($1)', [batch]),
    ]),
  );
  const attachmentPaths = attachments.map((row) => row.object_path);
  const avatarPaths = avatars.map((row) => row.object_path);
  await removeObjects(files, 'attachments', attachmentPaths);
  await removeObjects(files, 'avatars', avatarPaths);
  if (attachmentPaths.length + avatarPaths.length > 0) {
    files.logger.info('swept uploads', { attachments: attachmentPaths.length, avatars: avatarPaths.length });
  }
  return { attachments: attachmentPaths.length, avatars: avatarPaths.length };
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
