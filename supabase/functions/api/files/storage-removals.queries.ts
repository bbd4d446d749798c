/**
 * SQL for the queue of objects to remove from Storage (private.storage_removals, docs/decisions/0024),
 * run as the service. Triggers queue an object in the transaction that stops using it (an attachment
 * deleted with its task, a replaced avatar); a remover claims due rows, which counts an attempt and moves
 * their next attempt past a back-off (1, 4, 16 minutes, then hourly), so two removers never claim a row at
 * once and a remover that dies leaves it due again; it deletes the rows whose objects Storage removed.
 */
import type { Sql } from '../../_shared/db.ts';

/**
 * What the deletion of a task, project or workspace answers: whether attachments went with it, whose
 * objects the deletion queued for removal.
 */
export interface DeletedWithFiles extends Record<string, unknown> {
  had_files: boolean;
}

export interface QueuedRemoval extends Record<string, unknown> {
  id: string;
  bucket_id: string;
  object_path: string;
}

/** Claims up to `limit` due removals, oldest due first. */
export function claimStorageRemovals(sql: Sql, limit: number): Promise<QueuedRemoval[]> {
  return sql.query<QueuedRemoval>(
    `update private.storage_removals u
     set attempts = u.attempts + 1,
       next_attempt_at = now() + least(interval '1 minute' * power(4, u.attempts), interval '1 hour')
     where u.id in (
       select r.id from private.storage_removals r
       where r.next_attempt_at <= now()
       order by r.next_attempt_at
       limit $1
       for update skip locked)
     returning u.id::text, u.bucket_id, u.object_path`,
    [limit],
  );
}

/** Forgets the removals `ids`, made. */
export async function forgetStorageRemovals(sql: Sql, ids: readonly string[]): Promise<void> {
  await sql.query('delete from private.storage_removals where id = any($1::bigint[])', [ids]);
}

/** Forgets the removals of these objects, made (by the request that queued them, without a claim). */
export async function forgetRemovalsOf(sql: Sql, bucket: string, paths: readonly string[]): Promise<void> {
  await sql.query('delete from private.storage_removals where bucket_id = $1 and object_path = any($2)', [
    bucket,
    paths,
  ]);
}

/**
 * Runs the sweeps, which queue what no row uses any more: pending uploads past their window (the rows go
 * and triggers queue their objects) and objects no row names; how many each queued, at most `batch`.
 */
export async function queueSweptObjects(
  sql: Sql,
  batch: number,
): Promise<{ attachments: number; avatars: number }> {
  const [attachments, avatars] = await Promise.all([
    sql.query<{ queued: number }>('select private.sweep_attachment_uploads($1) as queued', [batch]),
    sql.query<{ queued: number }>('select private.sweep_avatar_uploads($1) as queued', [batch]),
  ]);
  return { attachments: attachments[0]?.queued ?? 0, avatars: avatars[0]?.queued ?? 0 };
}
