/**
 * SQL for attachments. Runs as the caller: RLS shows only the attachments of their workspaces; every write
 * goes through the private functions of the attachments migration (create, complete, delete), which hold
 * the rules. Attachments come out of Postgres in the API's shape, built by `private.attachment_json`, the
 * builder the event log uses too.
 */
import type { Attachment, CreateAttachment } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import {
  ATTACHMENTS_PER_TASK,
  PENDING_UPLOADS_PER_USER,
  WORKSPACE_STORAGE_BYTES,
} from '../../_shared/limits.ts';
import { rowsToFetch, type CreatedAtIdKey, type PageRequest } from '../../_shared/pages.ts';
import { raisedErrorCode, raisedErrorDetail, refusing, type Refusals } from '../../_shared/sql-errors.ts';
import { sizeMismatch, storedTypeMismatch } from '../files/file-errors.ts';
import { projectArchived } from '../projects/project-access.ts';
import { taskNotFound } from '../tasks/task-access.ts';
import type { WorkspaceAccessRow } from '../workspaces/workspace-access.queries.ts';
import { attachmentNotFound } from './attachment-errors.ts';

/** An attachment with what the rules about it need. */
export interface AttachmentRow extends Record<string, unknown> {
  attachment: Attachment;
  workspace_id: string;
  object_path: string;
  project_key: string;
  project_archived_at: Date | null;
  /** The size of its object in Storage; null while nothing is uploaded. */
  uploaded_size: string | null;
  /** The type Storage keeps its object under (and serves it with); null while nothing is uploaded. */
  uploaded_type: string | null;
}

export interface AttachmentListRow extends Record<string, unknown> {
  attachment: Attachment;
  sort_key: CreatedAtIdKey;
}

/** An attachment as it is written: the API's shape and where its bytes go. */
export interface StoredAttachment extends Record<string, unknown> {
  attachment: Attachment;
  object_path: string;
}

export async function selectAttachment(sql: Sql, id: string): Promise<AttachmentRow | undefined> {
  const [row] = await sql.query<AttachmentRow>(
    `select private.attachment_json(a) as attachment, a.workspace_id, a.object_path, p.key as project_key,
       p.archived_at as project_archived_at,
       private.uploaded_object_size('attachments', a.object_path)::text as uploaded_size,
       private.uploaded_object_type('attachments', a.object_path) as uploaded_type
     from public.attachments a
     join public.tasks t on t.id = a.task_id
     join public.projects p on p.id = t.project_id
     where a.id = $1`,
    [id],
  );
  return row;
}

/**
 * The caller's access to the workspace of the attachment `attachmentId` if it is one of theirs, whether
 * or not RLS shows the attachment: sent alongside the attachment's own read.
 */
export async function selectWorkspaceAccessOfAttachment(
  sql: Sql,
  attachmentId: string,
): Promise<WorkspaceAccessRow | undefined> {
  const [row] = await sql.query<WorkspaceAccessRow>(
    `select id, slug, require_mfa, role from private.caller_workspaces()
     where id = (select private.caller_workspace_of_attachment($1))`,
    [attachmentId],
  );
  return row;
}

/** A page of the task's attachments, oldest first: the ready ones and the caller's own pending ones. */
export function selectAttachments(
  sql: Sql,
  taskId: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<AttachmentListRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<AttachmentListRow>(
    `select private.attachment_json(a) as attachment, json_build_array(a.created_at, a.id) as sort_key
     from public.attachments a
     where a.task_id = $1
       and (a.status = 'ready'
         or (a.uploaded_by = (select auth.uid()) and not private.attachment_upload_expired(a)))
       and ($2::timestamptz is null or (a.created_at, a.id) > ($2::timestamptz, $3::uuid))
     order by a.created_at, a.id
     limit $4`,
    [taskId, createdAt, id, rowsToFetch(page)],
  );
}

/** Starts an attachment on the task as the caller; `private.create_attachment` holds the rules. */
export async function insertAttachment(
  sql: Sql,
  taskId: string,
  file: CreateAttachment,
  projectKey: string,
): Promise<StoredAttachment> {
  const [row] = await refusing(
    sql.query<StoredAttachment>(
      `select private.attachment_json(a) as attachment, a.object_path
       from private.create_attachment($1, $2, $3, $4) a`,
      [taskId, file.file_name, file.content_type, file.size_bytes],
    ),
    attachmentRefusals(projectKey, taskNotFound),
  );
  if (!row) throw new Error('private.create_attachment returned no row');
  return row;
}

/** Marks the caller's pending attachment ready; a ready one is answered as it is. */
export async function markAttachmentReady(sql: Sql, id: string, projectKey: string): Promise<Attachment> {
  const [row] = await refusing(
    sql.query<{ attachment: Attachment }>(
      'select private.attachment_json(a) as attachment from private.complete_attachment($1) a',
      [id],
    ),
    attachmentRefusals(projectKey, attachmentNotFound),
  );
  if (!row) throw new Error('private.complete_attachment returned no row');
  return row.attachment;
}

/** Deletes the attachment for its uploader or an admin; answers it as it was, with its object's path. */
export async function deleteAttachmentRow(
  sql: Sql,
  id: string,
  projectKey: string,
): Promise<StoredAttachment> {
  const [row] = await refusing(
    sql.query<StoredAttachment>(
      'select private.attachment_json(a) as attachment, a.object_path from private.delete_attachment($1) a',
      [id],
    ),
    attachmentRefusals(projectKey, attachmentNotFound),
  );
  if (!row) throw new Error('private.delete_attachment returned no row');
  return row;
}

/** What Postgres' own checks refused, as the API's errors: they hold even when a race beat the service's. */
const attachmentRefusals =
  (projectKey: string, notFound: () => AppError): Refusals =>
  (error) => {
    switch (raisedErrorCode(error)) {
      case 'limit_reached':
        return limitReached(raisedErrorDetail(error));
      case 'project_archived':
        return projectArchived(projectKey);
      case 'not_found':
        return notFound();
      case 'forbidden':
        return new AppError('forbidden', 'Only its uploader or an admin may do this with an attachment.');
      case 'upload_incomplete':
        return new AppError('upload_incomplete');
      case 'validation_failed':
        return sizeMismatch();
      case 'unsupported_media_type':
        return storedTypeMismatch();
      default:
        return undefined;
    }
  };

/** Which limit `private.create_attachment` found reached, by the detail it raised. */
function limitReached(limit: string | undefined): AppError {
  switch (limit) {
    case 'pending_uploads_per_user':
      return new AppError(
        'limit_reached',
        `You already have ${PENDING_UPLOADS_PER_USER} uploads pending, the limit (pending_uploads_per_user): complete or delete some first.`,
      );
    case 'workspace_storage_bytes':
      return new AppError(
        'limit_reached',
        `This file does not fit in the workspace's storage, ${WORKSPACE_STORAGE_BYTES} bytes (${WORKSPACE_STORAGE_BYTES / (1024 * 1024 * 1024)} GiB), the limit (workspace_storage_bytes); pending uploads count too. Delete some files first.`,
      );
    default:
      return new AppError(
        'limit_reached',
        `This task already has ${ATTACHMENTS_PER_TASK} attachments, the limit (attachments_per_task); pending uploads count too.`,
      );
  }
}
