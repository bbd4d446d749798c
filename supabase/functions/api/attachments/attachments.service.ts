/**
 * Attachments (docs/product.md#entities, #states, #validation, #roles): members read them and download their
 * files; owners, admins and members attach files (within ATTACHMENTS_PER_TASK, which Postgres counts); their
 * uploader or an admin deletes them. Nothing changes while the task's project is archived.
 *
 * A file's bytes never pass through the API: it issues a signed upload URL for a server-made path, the
 * client uploads straight to Storage, and `complete` checks what arrived (size, type, first bytes) before
 * the attachment becomes `ready`. Downloads are short-lived signed URLs. A pending attachment is listed
 * only for its uploader, completed only by them, and swept with its object once its upload URL has expired
 * (upload-sweep.ts). Deleted attachments' objects are removed through the queue of storage-removals.ts.
 */
import type {
  Attachment,
  AttachmentUpload,
  CreateAttachment,
  DownloadLink,
} from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import {
  ATTACHMENT_MAX_BYTES,
  SIGNED_DOWNLOAD_URL_LIFETIME_SECONDS,
  SIGNED_UPLOAD_URL_LIFETIME_SECONDS,
} from '../../_shared/limits.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import { requireActiveProject } from '../projects/project-access.ts';
import { enterTaskWorkspace, readInTaskWorkspace, requireActiveTaskProject } from '../tasks/task-access.ts';
import { admitToWorkspace, requireRole, type WorkspaceAccess } from '../workspaces/workspace-access.ts';
import {
  contentMismatch,
  fileTooLarge,
  sizeMismatch,
  storedTypeMismatch,
  typeNotAllowed,
} from '../files/file-errors.ts';
import { attachmentNotFound } from './attachment-errors.ts';
import {
  deleteAttachmentRow,
  insertAttachment,
  markAttachmentReady,
  selectAttachment,
  selectAttachments,
  selectWorkspaceAccessOfAttachment,
  type AttachmentRow,
} from './attachments.queries.ts';
import { isAttachmentContentType } from './attachments.schemas.ts';
import { looksLike, SIGNATURE_SAMPLE_BYTES } from '../files/file-signatures.ts';
import { storageOf, type FileStore } from '../files/file-store.ts';
import { removeQueuedObjects } from '../files/storage-removals.ts';

export const ATTACHMENTS_BUCKET = 'attachments';

const ALLOWED_TYPES = 'PNG, JPEG, GIF, WebP, PDF, plain text, Markdown, CSV, JSON and ZIP';

const inSeconds = (seconds: number): string => new Date(Date.now() + seconds * 1000).toISOString();

export function listAttachments(
  db: Database,
  principal: Principal,
  taskId: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Attachment>> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInTaskWorkspace(sql, principal, taskId, (last) =>
      selectAttachments(last, taskId, page),
    );
    return pageOf(found, page, (row) => row.attachment);
  });
}

export async function createAttachment(
  db: Database,
  files: FileStore,
  principal: Principal,
  taskId: string,
  file: CreateAttachment,
): Promise<AttachmentUpload> {
  const storage = storageOf(files);
  const created = await db.asCaller(principal, async (sql) => {
    const { access, task } = await enterTaskWorkspace(sql, principal, taskId);
    requireRole(access, 'member', 'attach files');
    requireAllowedFile(file);
    requireActiveTaskProject(task);
    return insertAttachment(asLastStatement(sql), taskId, file, task.project_key);
  });
  const expiresAt = inSeconds(SIGNED_UPLOAD_URL_LIFETIME_SECONDS);
  const upload = await storage.createSignedUploadUrl(ATTACHMENTS_BUCKET, created.object_path);
  return {
    object: 'attachment_upload',
    attachment: created.attachment,
    upload: { url: upload.url, token: upload.token, expires_at: expiresAt },
  };
}

/** `415` for a type attachments may not have, `413` for a file over the limit (docs/product.md#validation). */
function requireAllowedFile(file: CreateAttachment): void {
  if (!isAttachmentContentType(file.content_type)) throw typeNotAllowed(file.content_type, ALLOWED_TYPES);
  if (file.size_bytes > ATTACHMENT_MAX_BYTES)
    throw fileTooLarge('Files', ATTACHMENT_MAX_BYTES, file.size_bytes);
}

export function getAttachment(db: Database, principal: Principal, id: string): Promise<Attachment> {
  return db.asCaller(principal, async (sql) => {
    const { row } = await enterAttachmentWorkspace(sql, principal, id, asLastStatement(sql));
    return row.attachment;
  });
}

/**
 * Checks the uploaded object (there, of the declared size, kept under exactly the declared type, starting
 * as that type does) and marks the attachment ready. A file that is not what was declared is refused and
 * the attachment discarded.
 */
export async function completeAttachment(
  db: Database,
  files: FileStore,
  principal: Principal,
  id: string,
): Promise<Attachment> {
  const { access, row } = await db.asCaller(principal, (sql) =>
    enterAttachmentWorkspace(sql, principal, id, asLastStatement(sql)),
  );
  const { attachment } = row;
  requireRole(access, 'member', 'attach files');
  if (attachment.status === 'ready') return attachment;
  if (attachment.uploaded_by !== principal.user_id) {
    throw new AppError('forbidden', 'Only the person who started an upload may complete it.');
  }
  requireActiveProject(projectOf(row));
  if (row.uploaded_size === null) throw new AppError('upload_incomplete');
  const uploaded = Number(row.uploaded_size);
  if (uploaded !== attachment.size_bytes) {
    await discardUpload(db, files, principal, row);
    throw sizeMismatch(attachment.size_bytes, uploaded);
  }
  // Storage serves the object with the type it was sent as: only the declared one, exactly, may stay.
  if (row.uploaded_type !== attachment.content_type) {
    await discardUpload(db, files, principal, row);
    throw storedTypeMismatch({ declared: attachment.content_type, stored: row.uploaded_type });
  }
  const start = await storageOf(files).readStart(ATTACHMENTS_BUCKET, row.object_path, SIGNATURE_SAMPLE_BYTES);
  if (start === undefined) throw new AppError('upload_incomplete');
  if (!looksLike(attachment.content_type, start, uploaded <= SIGNATURE_SAMPLE_BYTES)) {
    await discardUpload(db, files, principal, row);
    throw contentMismatch(attachment.content_type);
  }
  return db.asCaller(principal, (sql) => markAttachmentReady(asLastStatement(sql), id, row.project_key));
}

/** A signed URL to the file: images inline (to be shown), anything else as a download under its name. */
export async function attachmentDownload(
  db: Database,
  files: FileStore,
  principal: Principal,
  id: string,
): Promise<DownloadLink> {
  const { row } = await db.asCaller(principal, (sql) =>
    enterAttachmentWorkspace(sql, principal, id, asLastStatement(sql)),
  );
  const { attachment } = row;
  if (attachment.status !== 'ready')
    throw new AppError('upload_incomplete', 'This file has not been uploaded yet.');
  const expiresAt = inSeconds(SIGNED_DOWNLOAD_URL_LIFETIME_SECONDS);
  const inline = attachment.content_type.startsWith('image/');
  const url = await storageOf(files).createSignedUrl(
    ATTACHMENTS_BUCKET,
    row.object_path,
    SIGNED_DOWNLOAD_URL_LIFETIME_SECONDS,
    inline ? undefined : attachment.file_name,
  );
  return { object: 'download_link', url, expires_at: expiresAt };
}

/** Deletes the attachment (its uploader, or an admin), which queues its object's removal; removes it. */
export async function deleteAttachment(
  db: Database,
  files: FileStore,
  principal: Principal,
  id: string,
): Promise<void> {
  const deleted = await db.asCaller(principal, async (sql) => {
    const { access, row } = await enterAttachmentWorkspace(sql, principal, id);
    requireUploaderOrAdmin(access, row, principal);
    requireActiveProject(projectOf(row));
    return deleteAttachmentRow(asLastStatement(sql), id, row.project_key);
  });
  await removeQueuedObjects(db, files, ATTACHMENTS_BUCKET, [deleted.object_path]);
}

/** An upload refused at completion goes, row and object, so that the client starts again. */
async function discardUpload(db: Database, files: FileStore, principal: Principal, row: AttachmentRow) {
  await db.asCaller(principal, (sql) =>
    deleteAttachmentRow(asLastStatement(sql), row.attachment.id, row.project_key),
  );
  await removeQueuedObjects(db, files, ATTACHMENTS_BUCKET, [row.object_path]);
}

/**
 * The attachment (`404` unless the caller can see it) and the caller's
 * access to its workspace, read together in one round trip; `403 mfa_required` when RLS hid it because
 * its workspace requires MFA and the caller is at aal1.
 */
async function enterAttachmentWorkspace(sql: Sql, principal: Principal, id: string, last: Sql = sql) {
  const [row, accessRow] = await Promise.all([
    selectAttachment(sql, id),
    selectWorkspaceAccessOfAttachment(last, id),
  ]);
  if (!row) {
    if (accessRow) admitToWorkspace(principal, accessRow.slug, accessRow);
    throw attachmentNotFound();
  }
  if (!accessRow) throw new AppError('not_found');
  return { row, access: admitToWorkspace(principal, accessRow.slug, accessRow) };
}

function requireUploaderOrAdmin(access: WorkspaceAccess, row: AttachmentRow, principal: Principal): void {
  if (row.attachment.uploaded_by === principal.user_id) requireRole(access, 'member', 'delete attachments');
  else requireRole(access, 'admin', "delete others' attachments");
}

function projectOf(row: AttachmentRow) {
  return { key: row.project_key, archived: row.project_archived_at !== null };
}
