/**
 * The caller's avatar (docs/product.md#entities, #validation): a PNG, JPEG or WebP picture of at most 2 MiB,
 * uploaded straight to Storage through a signed URL and checked by `complete` as an attachment is (size,
 * type, first bytes), which then makes it the profile's avatar and removes the one it replaced.
 */
import type { AvatarUpload, CreateAvatarUpload, Me } from '../../_shared/api-types.ts';
import { asLastStatement, type Database } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { AVATAR_MAX_BYTES, SIGNED_UPLOAD_URL_LIFETIME_SECONDS } from '../../_shared/limits.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  contentMismatch,
  fileTooLarge,
  sizeMismatch,
  storedTypeMismatch,
  typeNotAllowed,
} from '../files/file-errors.ts';
import { AVATARS_BUCKET } from '../files/avatar-urls.ts';
import { looksLike, SIGNATURE_SAMPLE_BYTES } from '../files/file-signatures.ts';
import { removeObjects, storageOf, type FileStore } from '../files/file-store.ts';
import { removeQueuedObjects } from '../files/storage-removals.ts';
import { readMe, withAvatarUrl } from '../me/me.service.ts';
import { isAvatarContentType } from './avatars.schemas.ts';
import {
  completeAvatarUpload,
  insertAvatarUpload,
  noAvatarUpload,
  removeOwnAvatar,
  selectAvatarUpload,
} from './avatars.queries.ts';

export async function createAvatarUpload(
  db: Database,
  files: FileStore,
  principal: Principal,
  picture: CreateAvatarUpload,
): Promise<AvatarUpload> {
  if (!isAvatarContentType(picture.content_type)) {
    throw typeNotAllowed(picture.content_type, 'PNG, JPEG and WebP images');
  }
  if (picture.size_bytes > AVATAR_MAX_BYTES)
    throw fileTooLarge('Avatars', AVATAR_MAX_BYTES, picture.size_bytes);
  const storage = storageOf(files);
  const path = await db.asCaller(principal, (sql) =>
    insertAvatarUpload(asLastStatement(sql), picture.content_type, picture.size_bytes),
  );
  const expiresAt = new Date(Date.now() + SIGNED_UPLOAD_URL_LIFETIME_SECONDS * 1000).toISOString();
  const upload = await storage.createSignedUploadUrl(AVATARS_BUCKET, path);
  return { object: 'avatar_upload', upload: { url: upload.url, token: upload.token, expires_at: expiresAt } };
}

export async function completeAvatar(db: Database, files: FileStore, principal: Principal): Promise<Me> {
  const upload = await db.asCaller(principal, (sql) => selectAvatarUpload(asLastStatement(sql)));
  if (!upload) throw noAvatarUpload();
  if (upload.uploaded_size === null) throw new AppError('upload_incomplete');
  const declared = Number(upload.size_bytes);
  const uploaded = Number(upload.uploaded_size);
  if (uploaded !== declared) {
    await discardPicture(files, upload.object_path);
    throw sizeMismatch(declared, uploaded);
  }
  // Storage serves the picture with the type it was sent as: only the declared one, exactly, may stay.
  if (upload.uploaded_type !== upload.content_type) {
    await discardPicture(files, upload.object_path);
    throw storedTypeMismatch({ declared: upload.content_type, stored: upload.uploaded_type });
  }
  const start = await storageOf(files).readStart(AVATARS_BUCKET, upload.object_path, SIGNATURE_SAMPLE_BYTES);
  if (start === undefined) throw new AppError('upload_incomplete');
  if (!isAvatarContentType(upload.content_type) || !looksLike(upload.content_type, start, true)) {
    await discardPicture(files, upload.object_path);
    throw contentMismatch(upload.content_type);
  }
  // The change and the reads behind it travel together: statements run in order, so the reads see it. The
  // commit names the upload checked here: one started since is refused, not committed unchecked.
  const { replaced, me } = await db.asCaller(principal, async (sql) => {
    const [{ previous_path }, me] = await Promise.all([
      completeAvatarUpload(sql, upload.object_path),
      readMe(sql, principal),
    ]);
    return { replaced: previous_path, me };
  });
  // The profile's change queued the replaced picture's removal.
  if (replaced !== null) await removeQueuedObjects(db, files, AVATARS_BUCKET, [replaced]);
  return withAvatarUrl(files, me);
}

export async function deleteAvatar(db: Database, files: FileStore, principal: Principal): Promise<void> {
  const removed = await db.asCaller(principal, (sql) => removeOwnAvatar(asLastStatement(sql)));
  if (removed !== null) await removeQueuedObjects(db, files, AVATARS_BUCKET, [removed]);
}

/**
 * Removes a refused picture; its upload stays under way (a new PUT may bring the right one). If Storage
 * cannot remove it now, the sweep queues it with its upload once that expires.
 */
async function discardPicture(files: FileStore, path: string): Promise<void> {
  await removeObjects(files, AVATARS_BUCKET, [path], 'the sweep queues them once their upload expires');
}
