import type { components } from '@api-spec/schema.d.ts';
import { useState } from 'react';
import { toast } from 'sonner';
import { announce } from '../../../../components/ui/announce.ts';
import { Avatar, EmptyAvatar } from '../../../../components/ui/avatar.tsx';
import { ApiError, describeError } from '../../../../lib/api/api-error.ts';
import { useDeleteComment } from '../../api/delete-comment.ts';
import { useUpdateComment } from '../../api/update-comment.ts';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { Markdown } from '../panel/markdown.tsx';
import { formatTimestamp, relativeTime } from '../../../../lib/dates/relative-time.ts';
import {
  canEditTasks,
  canModerate,
  memberAvatar,
  memberName,
  type TaskWorkspace,
} from '../panel/task-context.ts';
import { draftPlace, type DraftBase, type DraftPlace } from '../../drafts/draft-storage.ts';
import { useDraft } from '../../drafts/use-draft.ts';
import { CommentEditor } from './comment-editor.tsx';
import styles from './comments.module.css';

type Comment = components['schemas']['Comment'];

/**
 * One comment: its author, when, "edited", and the body in markdown. Its author may edit it and delete
 * it; owners and admins may delete anyone's (docs/product.md#roles). A deleted one keeps its place.
 */
export function CommentItem({
  comment,
  workspace,
  highlighted = false,
}: {
  comment: Comment;
  workspace: TaskWorkspace;
  /** The comment the address points at (`#comment-<id>`, from a notification). */
  highlighted?: boolean;
}) {
  const update = useUpdateComment(comment.task_id);
  const remove = useDeleteComment(comment.task_id);
  const author = memberName(workspace.members, comment.author_id);
  const mine = comment.author_id !== null && comment.author_id === workspace.meId;
  const canEdit = mine && canEditTasks(workspace.role) && !comment.deleted;
  const canDelete = (mine && canEditTasks(workspace.role)) || canModerate(workspace.role);
  const draft = useDraft(
    draftPlace(workspace.meId, workspace.slug, comment.task_id),
    `comment:${comment.id}`,
  );
  // An edit kept as a draft (a reload, the panel closed) opens again with it.
  const [editing, setEditing] = useState(() => canEdit && draft.read() !== null);
  // The comment as it was when editing began, so a change made since is refused (412), not overwritten;
  // null once the person has seen the latest and chosen to replace it.
  const [since, setSince] = useState<DraftBase | null>(() => (editing ? (draft.read()?.base ?? null) : null));
  const current = { text: comment.body ?? '', version: comment.version };

  const startEditing = () => {
    setSince(current);
    setEditing(true);
  };

  const save = async (body: string) => {
    const over = since && since.text !== current.text ? { ...comment, version: since.version } : comment;
    try {
      await update.mutateAsync({ comment: over, body });
      announce('Comment saved');
      setEditing(false);
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        setSince(null);
        return 'The comment changed since you opened it; it now shows the latest version. Your text is kept: save again to replace it.';
      }
      return describeError(error);
    }
  };

  const onDelete = () =>
    remove.mutate(comment, {
      onSuccess: () => toast.success('Comment deleted'),
      onError: (error) => toast.error(describeError(error)),
    });

  return (
    <li
      id={commentAnchor(comment.id)}
      className={highlighted ? `${styles.comment} ${styles.highlighted}` : styles.comment}
      data-comment-id={comment.id}
      data-highlighted={highlighted || undefined}
    >
      <div className={styles.meta}>
        {comment.author_id ? (
          <Avatar
            name={author}
            id={comment.author_id}
            src={memberAvatar(workspace.members, comment.author_id)}
            decorative
          />
        ) : (
          <EmptyAvatar />
        )}
        <span className={styles.author}>{author}</span>
        <time
          className={styles.time}
          dateTime={comment.created_at}
          title={formatTimestamp(comment.created_at)}
        >
          {relativeTime(comment.created_at)}
        </time>
        {comment.edited_at && !comment.deleted && <span className={styles.time}>· edited</span>}
        {!comment.deleted && !editing && (canEdit || canDelete) && (
          <span className={styles.commentActions}>
            {canEdit && (
              <button type="button" className={styles.textButton} onClick={startEditing}>
                Edit
              </button>
            )}
            {canDelete && (
              <ConfirmDialog
                trigger={
                  <button type="button" className={styles.textButton} disabled={remove.isPending}>
                    Delete
                  </button>
                }
                title="Delete this comment?"
                description="Its text is gone for good; the thread shows that a comment was deleted."
                confirm="Delete comment"
                onConfirm={onDelete}
              />
            )}
          </span>
        )}
      </div>
      {comment.deleted || comment.body === null ? (
        <p className={styles.deleted}>This comment was deleted</p>
      ) : editing ? (
        <CommentEditor
          label="Edit comment"
          initial={(since ?? current).text}
          draft={draft}
          draftBase={since ?? current}
          submitLabel="Save"
          onSubmit={save}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className={styles.body}>
          <Markdown>{comment.body}</Markdown>
        </div>
      )}
    </li>
  );
}

/** The id of a comment's element, which an address's hash points at: `comment-<id>`. */
export const commentAnchor = (commentId: string): string => `comment-${commentId}`;

export function CommentComposer({
  taskId,
  draftPlace,
  create,
}: {
  taskId: string;
  /** Where the comment being written is kept until it is sent. */
  draftPlace: DraftPlace | null;
  create: (body: string) => Promise<unknown>;
}) {
  const [key, setKey] = useState(0);
  const draft = useDraft(draftPlace, 'comment:new');
  const submit = async (body: string) => {
    try {
      await create(body);
      announce('Comment posted');
      // Gone before the empty box mounts, which would otherwise open with it.
      draft.discard();
      setKey((k) => k + 1);
      return null;
    } catch (error) {
      return describeError(error);
    }
  };
  return (
    <div className={styles.composer}>
      <CommentEditor
        key={`${taskId}-${key}`}
        label="Write a comment"
        initial=""
        draft={draft}
        draftBase={null}
        submitLabel="Comment"
        onSubmit={submit}
      />
    </div>
  );
}
