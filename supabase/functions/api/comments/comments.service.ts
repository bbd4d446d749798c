/**
 * Comments on a task (docs/product.md#entities, #roles): members read them; owners, admins and members
 * comment (within COMMENTS_PER_TASK, which Postgres counts) and edit their own; a comment is deleted softly
 * by its author or an admin and keeps its place as deleted. Nothing changes while the task's project is
 * archived. Comments live at flat addresses (/v1/comments/{id}): each call finds the comment, or its task,
 * first (RLS hides other workspaces' as missing), then enters its workspace for the MFA rule and the roles.
 */
import type { Comment, CreateComment, UpdateComment } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { pageOf, type CreatedAtIdKey, type Page, type PageRequest } from '../../_shared/pages.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  conditionalWriteFailure,
  isExpectedVersion,
  preconditionFailed,
  requireExpectedVersion,
  type ExpectedVersion,
} from '../../_shared/versions.ts';
import { requireActiveProject } from '../projects/project-access.ts';
import { enterTaskWorkspace, readInTaskWorkspace, requireActiveTaskProject } from '../tasks/task-access.ts';
import { selectWorkspaceAccessOfComment } from '../workspaces/workspace-access.queries.ts';
import { admitToWorkspace, requireRole, type WorkspaceAccess } from '../workspaces/workspace-access.ts';
import {
  insertComment,
  selectComment,
  selectComments,
  softDeleteComment,
  updateCommentBody,
  type CommentRow,
} from './comments.queries.ts';
import { commentNotFound } from './comment-errors.ts';

export function listComments(
  db: Database,
  principal: Principal,
  taskId: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<Page<Comment>> {
  return db.asCaller(principal, async (sql) => {
    const { found } = await readInTaskWorkspace(sql, principal, taskId, (last) =>
      selectComments(last, taskId, page),
    );
    return pageOf(found, page, (row) => row.comment);
  });
}

export function createComment(
  db: Database,
  principal: Principal,
  taskId: string,
  request: CreateComment,
): Promise<Comment> {
  return db.asCaller(principal, async (sql) => {
    const { access, task } = await enterTaskWorkspace(sql, principal, taskId);
    requireRole(access, 'member', 'comment on tasks');
    requireActiveTaskProject(task);
    return insertComment(asLastStatement(sql), taskId, request.body, task.project_key);
  });
}

export function getComment(db: Database, principal: Principal, id: string): Promise<Comment> {
  return db.asCaller(
    principal,
    async (sql) => (await enterCommentWorkspace(sql, principal, id, asLastStatement(sql))).row.comment,
  );
}

/** In two round trips: the comment and its workspace, then the write with its COMMIT. */
export async function updateComment(
  db: Database,
  principal: Principal,
  id: string,
  changes: UpdateComment,
  expected: ExpectedVersion,
): Promise<Comment> {
  const updated = await db.asCaller(principal, async (sql) => {
    const { access, row } = await enterCommentWorkspace(sql, principal, id);
    requireAuthor(access, row, principal);
    if (changes.body === undefined) return unchanged(row, expected);
    requireActiveProject(projectOf(row));
    // What the write's guard would refuse, judged on the row just read: no round trip to learn why.
    if (row.comment.deleted || !isExpectedVersion(row.comment.version, expected)) {
      throw whyUnchanged(row, expected);
    }
    return updateCommentBody(asLastStatement(sql), id, changes.body, expected, row.project_key);
  });
  if (updated) return updated;
  // The comment changed or went between the read and the write, and the write's transaction is over.
  throw whyUnchanged(await currentComment(db, principal, id), expected);
}

export async function deleteComment(
  db: Database,
  principal: Principal,
  id: string,
  expected: ExpectedVersion,
): Promise<void> {
  const deleted = await db.asCaller(principal, async (sql) => {
    const { access, row } = await enterCommentWorkspace(sql, principal, id);
    requireAuthorOrAdmin(access, row, principal);
    requireActiveProject(projectOf(row));
    requireExpectedVersion(row.comment.version, expected);
    return softDeleteComment(asLastStatement(sql), id, expected, row.project_key);
  });
  if (deleted) return;
  // The comment changed between the read and the write, and the write's transaction is over.
  const current = await currentComment(db, principal, id);
  throw conditionalWriteFailure(current?.comment.version, commentNotFound().detail);
}

/** The comment as it is now, read in a transaction of its own (after a write's has ended). */
function currentComment(db: Database, principal: Principal, id: string): Promise<CommentRow | undefined> {
  return db.asCaller(principal, (sql) => selectComment(asLastStatement(sql), id));
}

/**
 * The comment (`404` unless the caller can see it) and the caller's access to its workspace, read
 * together in one round trip; `403 mfa_required` when RLS hid it because its workspace requires MFA and
 * the caller is at aal1. `last`: asLastStatement(sql) when nothing follows, so the COMMIT goes with them.
 */
async function enterCommentWorkspace(sql: Sql, principal: Principal, id: string, last: Sql = sql) {
  const [row, accessRow] = await Promise.all([
    selectComment(sql, id),
    selectWorkspaceAccessOfComment(last, id),
  ]);
  if (!row) {
    if (accessRow) admitToWorkspace(principal, accessRow.slug, accessRow);
    throw commentNotFound();
  }
  if (!accessRow) throw new AppError('not_found');
  return { row, access: admitToWorkspace(principal, accessRow.slug, accessRow) };
}

/** Only its author edits a comment, and only while their role lets them comment: admins delete, never reword. */
function requireAuthor(access: WorkspaceAccess, row: CommentRow, principal: Principal): void {
  if (row.comment.author_id !== principal.user_id) {
    throw new AppError('forbidden', 'Only its author may edit a comment.');
  }
  requireRole(access, 'member', 'edit comments');
}

function requireAuthorOrAdmin(access: WorkspaceAccess, row: CommentRow, principal: Principal): void {
  if (row.comment.author_id === principal.user_id) requireRole(access, 'member', 'delete comments');
  else requireRole(access, 'admin', "delete others' comments");
}

/** An empty merge patch changes nothing, but still answers If-Match and the rules as a write would. */
function unchanged(row: CommentRow, expected: ExpectedVersion): Comment {
  requireExpectedVersion(row.comment.version, expected);
  requireActiveProject(projectOf(row));
  if (row.comment.deleted) throw commentDeleted();
  return row.comment;
}

/** Why the update changed no row: no such comment, another version, or a deleted one. */
function whyUnchanged(current: CommentRow | undefined, expected: ExpectedVersion): AppError {
  if (!current) return commentNotFound();
  if (!isExpectedVersion(current.comment.version, expected))
    return preconditionFailed(current.comment.version);
  return commentDeleted();
}

function commentDeleted(): AppError {
  return new AppError('comment_deleted', 'This comment was deleted; a deleted comment cannot be edited.');
}

function projectOf(row: CommentRow) {
  return { key: row.project_key, archived: row.project_archived_at !== null };
}
