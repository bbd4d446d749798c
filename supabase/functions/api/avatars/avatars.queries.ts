/**
 * SQL for the caller's avatar, through the private functions of the avatars migration: the caller cannot
 * set `avatar_path` themselves, nor see the uploads under way.
 */
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { raisedErrorCode, raisedErrorDetail, refusing, type Refusals } from '../../_shared/sql-errors.ts';
import { sizeMismatch, storedTypeMismatch } from '../files/file-errors.ts';

export interface AvatarUploadRow extends Record<string, unknown> {
  object_path: string;
  content_type: string;
  size_bytes: string;
  /** The size of its object in Storage; null while nothing is uploaded. */
  uploaded_size: string | null;
  /** The type Storage keeps its object under (and serves it with); null while nothing is uploaded. */
  uploaded_type: string | null;
}

/** Starts (or restarts) the caller's avatar upload; answers its object's path. */
export async function insertAvatarUpload(sql: Sql, contentType: string, sizeBytes: number): Promise<string> {
  const [row] = await sql.query<{ object_path: string }>(
    'select object_path from private.begin_avatar_upload($1, $2)',
    [contentType, sizeBytes],
  );
  if (!row) throw new Error('private.begin_avatar_upload returned no row');
  return row.object_path;
}

export async function selectAvatarUpload(sql: Sql): Promise<AvatarUploadRow | undefined> {
  const [row] = await sql.query<AvatarUploadRow>(
    `select object_path, content_type, size_bytes::text, uploaded_size::text, uploaded_type
     from private.caller_avatar_upload()`,
  );
  return row;
}

/**
 * Makes the uploaded object the caller's avatar, if it is still the upload at `checkedPath`, the one the
 * API checked; answers the avatar it replaced, if any.
 */
export async function completeAvatarUpload(
  sql: Sql,
  checkedPath: string,
): Promise<{ previous_path: string | null }> {
  const [row] = await refusing(
    sql.query<{ previous_path: string | null }>(
      'select previous_path from private.complete_avatar_upload($1)',
      [checkedPath],
    ),
    avatarRefusals,
  );
  if (!row) throw new Error('private.complete_avatar_upload returned no row');
  return row;
}

/** Removes the caller's avatar; answers its path, or null when there was none. */
export async function removeOwnAvatar(sql: Sql): Promise<string | null> {
  const [row] = await sql.query<{ previous: string | null }>('select private.remove_avatar() as previous');
  return row?.previous ?? null;
}

export function noAvatarUpload(): AppError {
  return new AppError('not_found', 'No avatar upload is under way: start one with POST /v1/me/avatar.');
}

const avatarRefusals: Refusals = (error) => {
  switch (raisedErrorCode(error)) {
    case 'not_found':
      return noAvatarUpload();
    case 'upload_incomplete':
      return raisedErrorDetail(error) === 'upload_replaced'
        ? new AppError(
            'upload_incomplete',
            'You started another avatar upload while this one was being checked: upload to its URL, then complete again.',
          )
        : new AppError('upload_incomplete');
    case 'validation_failed':
      return sizeMismatch();
    case 'unsupported_media_type':
      return storedTypeMismatch();
    default:
      return undefined;
  }
};
