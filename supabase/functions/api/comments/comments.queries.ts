/**
 * SQL for comments. Runs as the caller: RLS shows only the comments (and tasks) of their workspaces, lets
 * editors comment as themselves and authors edit their own; soft deletes go through
 * `private.delete_comment`, which lets authors and admins. Comments come out of Postgres in the API's
 * shape, built by `private.comment_json`, the builder the event log uses too.
 */
import type { Comment } from '../../_shared/api-types.ts';
import type { Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import { COMMENTS_PER_TASK } from '../../_shared/limits.ts';
import { rowsToFetch, type CreatedAtIdKey, type PageRequest } from '../../_shared/pages.ts';
import { raisedErrorCode, refusing, type Refusals } from '../../_shared/sql-errors.ts';
import type { ExpectedVersion } from '../../_shared/versions.ts';
import { projectArchived } from '../projects/project-access.ts';
import { taskNotFound } from '../tasks/task-access.ts';
import { commentNotFound } from './comment-errors.ts';

/** A comment with what the rules about it need: its workspace, and its task's project. */
export interface CommentRow extends Record<string, unknown> {
  comment: Comment;
  workspace_id: string;
  project_key: string;
  project_archived_at: Date | null;
}

export interface CommentListRow extends Record<string, unknown> {
  comment: Comment;
  sort_key: CreatedAtIdKey;
}

export async function selectComment(sql: Sql, id: string): Promise<CommentRow | undefined> {
  const [row] = await sql.query<CommentRow>(
    `select private.comment_json(c) as comment, c.workspace_id, p.key as project_key,
       p.archived_at as project_archived_at
     from public.comments c
     join public.tasks t on t.id = c.task_id
     join public.projects p on p.id = t.project_id
     where c.id = $1`,
    [id],
  );
  return row;
}

/** A page of the task's comments, oldest first, deleted ones in their place. */
export function selectComments(
  sql: Sql,
  taskId: string,
  page: PageRequest<CreatedAtIdKey>,
): Promise<CommentListRow[]> {
  const [createdAt, id] = page.cursor ?? [null, null];
  return sql.query<CommentListRow>(
    `select private.comment_json(c) as comment, json_build_array(c.created_at, c.id) as sort_key
     from public.comments c
     where c.task_id = $1 and ($2::timestamptz is null or (c.created_at, c.id) > ($2::timestamptz, $3::uuid))
     order by c.created_at, c.id
     limit $4`,
    [taskId, createdAt, id, rowsToFetch(page)],
  );
}

/**
 * Comments on the task as the caller. The trigger counts the task's comments under its row lock.
 * `projectKey` names the task's project in a refusal.
 */
export async function insertComment(
  sql: Sql,
  taskId: string,
  body: string,
  projectKey: string,
): Promise<Comment> {
  const [row] = await refusing(
    sql.query<{ comment: Comment }>(
      `insert into public.comments as c (task_id, author_id, body)
       values ($1, (select auth.uid()), $2)
       returning private.comment_json(c) as comment`,
      [taskId, body],
    ),
    commentWriteRefusals(projectKey, taskNotFound),
  );
  if (!row) throw new Error('insert into comments returned no row');
  return row.comment;
}

/**
 * Replaces the body if the comment is not deleted and is at an expected version (RLS: only its author's
 * own); undefined when no row changed. The trigger sets edited_at. `projectKey` names the task's project
 * in a refusal.
 */
export async function updateCommentBody(
  sql: Sql,
  id: string,
  body: string,
  expected: ExpectedVersion,
  projectKey: string,
): Promise<Comment | undefined> {
  const [row] = await refusing(
    sql.query<{ comment: Comment }>(
      `update public.comments c set body = $2
       where c.id = $1 and c.deleted_at is null and ($3::integer[] is null or c.version = any($3::integer[]))
       returning private.comment_json(c) as comment`,
      [id, body, expected],
    ),
    commentWriteRefusals(projectKey, commentNotFound),
  );
  return row?.comment;
}

/**
 * Deletes the comment softly if it is at an expected version: the comment as it is now (deleted, now or
 * before), or undefined when it is at another version. `private.delete_comment` raises `not_found` or
 * `forbidden`; `projectKey` names the task's project in a refusal.
 */
export async function softDeleteComment(
  sql: Sql,
  id: string,
  expected: ExpectedVersion,
  projectKey: string,
): Promise<Comment | undefined> {
  const [row] = await refusing(
    sql.query<{ comment: Comment }>(
      `select private.comment_json(d) as comment
       from private.delete_comment($1, $2::integer[]) d
       where d.id is not null`,
      [id, expected],
    ),
    commentWriteRefusals(projectKey, commentNotFound),
  );
  return row?.comment;
}

/** What Postgres' own checks refused, as the API's errors: they hold even when a race beat the service's. */
const commentWriteRefusals =
  (projectKey: string, notFound: () => AppError): Refusals =>
  (error) => {
    switch (raisedErrorCode(error)) {
      case 'limit_reached':
        return new AppError(
          'limit_reached',
          `This task already has ${COMMENTS_PER_TASK} comments, the limit (comments_per_task); deleted ones keep their place and count.`,
        );
      case 'project_archived':
        return projectArchived(projectKey);
      case 'not_found':
        return notFound();
      case 'forbidden':
        return new AppError('forbidden', 'Only its author or an admin may delete a comment.');
      default:
        return undefined;
    }
  };
