import type { components } from '@api-spec/schema.d.ts';
import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Avatar, EmptyAvatar } from '../../../../components/ui/avatar.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { describeError } from '../../../../lib/api/api-error.ts';
import { useOnline } from '../../../../lib/offline/online-status.ts';
import { useCreateComment } from '../../api/create-comment.ts';
import { useComments } from '../../api/list-comments.ts';
import { useTaskEvents } from '../../api/list-task-events.ts';
import { commentAnchor, CommentComposer, CommentItem } from '../comments/comment-item.tsx';
import { draftPlace } from '../../drafts/draft-storage.ts';
import { eventSentence } from './event-sentence.ts';
import { formatTimestamp, relativeTime } from '../../../../lib/dates/relative-time.ts';
import { canEditTasks, memberAvatar, memberName, type Task, type TaskWorkspace } from './task-context.ts';
import styles from './panel.module.css';

type Comment = components['schemas']['Comment'];
type Event = components['schemas']['Event'];

type Entry =
  | { kind: 'comment'; at: string; comment: Comment }
  | { kind: 'event'; at: string; event: Event; sentence: string };

/** The task's history, Linear-style: its events in words and its comments, in time order, then the composer. */
export function TaskActivity({ task, workspace }: { task: Task; workspace: TaskWorkspace }) {
  const comments = useComments(task.id);
  const events = useTaskEvents(task.id);
  const create = useCreateComment(task.id);
  const online = useOnline();
  const nameOf = (userId: string) => memberName(workspace.members, userId);

  const entries: Entry[] = [
    ...(comments.data ?? []).map((comment): Entry => ({ kind: 'comment', at: comment.created_at, comment })),
    ...(events.data ?? []).flatMap((event): Entry[] => {
      const sentence = eventSentence(event, nameOf);
      return sentence ? [{ kind: 'event', at: event.created_at, event, sentence }] : [];
    }),
  ].sort((a, b) => a.at.localeCompare(b.at));

  const failed = comments.error ?? events.error;
  const highlighted = useHighlightedComment(comments.data);

  return (
    <section className={styles.activity} aria-labelledby="task-activity-title">
      <h3 id="task-activity-title" className="section-heading">
        Activity
      </h3>
      {failed ? (
        <div className={styles.inlineError} role="alert">
          <p>{describeError(failed)}</p>
          <Button
            onClick={() => {
              void comments.refetch();
              void events.refetch();
            }}
          >
            Try again
          </Button>
        </div>
      ) : (comments.isPending || events.isPending) && !online ? (
        <p className={styles.hint}>The activity loads when you’re back online.</p>
      ) : comments.isPending || events.isPending ? (
        <ul className={styles.skeletonList} aria-label="Loading the activity">
          <li className={styles.skeleton} />
          <li className={styles.skeleton} />
        </ul>
      ) : (
        <ol className={styles.timeline}>
          {entries.map((entry) =>
            entry.kind === 'comment' ? (
              <CommentItem
                key={`c-${entry.comment.id}`}
                comment={entry.comment}
                workspace={workspace}
                highlighted={entry.comment.id === highlighted}
              />
            ) : (
              <li key={`e-${entry.event.id}`} className={styles.event}>
                {entry.event.actor.user_id ? (
                  <Avatar
                    name={nameOf(entry.event.actor.user_id)}
                    id={entry.event.actor.user_id}
                    src={memberAvatar(workspace.members, entry.event.actor.user_id)}
                    decorative
                  />
                ) : (
                  <EmptyAvatar />
                )}
                <span>
                  <span className={styles.actor}>
                    {entry.event.actor.user_id ? nameOf(entry.event.actor.user_id) : 'Tasklane'}
                  </span>{' '}
                  {entry.sentence}
                </span>
                <time className={styles.eventTime} dateTime={entry.at} title={formatTimestamp(entry.at)}>
                  {relativeTime(entry.at)}
                </time>
              </li>
            ),
          )}
        </ol>
      )}
      {canEditTasks(workspace.role) ? (
        <CommentComposer
          taskId={task.id}
          draftPlace={draftPlace(workspace.meId, workspace.slug, task.id)}
          create={(body) => create.mutateAsync(body)}
        />
      ) : (
        <p className={styles.hint}>Viewers can read the comments but not write them.</p>
      )}
    </section>
  );
}

/**
 * The comment the address's hash points at (`#comment-<id>`, a notification opened), scrolled to once the
 * thread has loaded.
 */
function useHighlightedComment(comments: Comment[] | undefined): string | undefined {
  const hash = useRouterState({ select: (state) => state.location.hash });
  const id = comments?.find((comment) => commentAnchor(comment.id) === hash)?.id;
  useEffect(() => {
    if (id) document.getElementById(commentAnchor(id))?.scrollIntoView({ block: 'center' });
  }, [id]);
  return id;
}
