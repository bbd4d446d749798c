import { useEffect, useRef } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { classNames } from '../../../../components/ui/class-names.ts';
import { useOnline } from '../../../../lib/offline/online-status.ts';
import type { Task } from '../../api/list-tasks.ts';
import { STATUS_LABELS } from '../task-meta/status.tsx';
import styles from './pending-cards.module.css';
import cardStyles from './task-card.module.css';
import type { TaskCreation } from './task-creations.ts';
import { useColumnCreations } from './use-column-creations.ts';

interface PendingCardsProps {
  slug: string;
  projectKey: string;
  status: Task['status'];
  /** The column's tasks read so far. */
  tasks: readonly Task[];
}

/**
 * The titles of a column's quick-add that are not tasks yet, at the column's end where the API puts them:
 * each a card marked as being saved until it becomes the task's own card (in the same frame), or, if it
 * failed, a card that keeps the title with the API's reason, to retry (the same creation) or discard.
 * Loaded with the quick-add (late-board-modules.ts), not on the board's first paint.
 */
export function PendingCards({ slug, projectKey, status, tasks }: PendingCardsProps) {
  const { creations, retry, discard } = useColumnCreations({ slug, projectKey, status });
  // A creation whose answer was lost is retried; meanwhile the board may have read its task (its realtime
  // echo): then the task's card stands for it.
  const shown = creations.filter((creation) => creation.state === 'failed' || !onBoard(creation, tasks));
  if (shown.length === 0) return null;
  return (
    <ol className={styles.list} aria-label={`Being added to ${STATUS_LABELS[status]}`}>
      {shown.map((creation) => (
        <li key={creation.id}>
          {creation.state === 'saving' ? (
            <SavingCard creation={creation} />
          ) : (
            <FailedCard
              creation={creation}
              onRetry={() => retry(creation.id)}
              onDiscard={() => discard(creation.id)}
            />
          )}
        </li>
      ))}
    </ol>
  );
}

/** Whether the column shows a task of the creation's title that was not there when it was submitted. */
function onBoard(creation: TaskCreation, tasks: readonly Task[]): boolean {
  return tasks.some((task) => task.title === creation.title && !creation.namesakes.includes(task.id));
}

function SavingCard({ creation }: { creation: TaskCreation }) {
  const card = useRef<HTMLDivElement>(null);
  const online = useOnline();
  // The newest title comes into view at the column's end, as the task's card will be.
  // (In braces: Chromium's scrollIntoView now answers a promise, which React would take for a cleanup.)
  useEffect(() => {
    card.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, []);
  return (
    <div
      ref={card}
      className={classNames(cardStyles.card, cardStyles.saving)}
      data-creation="saving"
      aria-busy="true"
    >
      <span className={cardStyles.top}>
        <span className={styles.state}>{online ? 'Saving…' : 'Will send'}</span>
      </span>
      <span className={cardStyles.title}>{creation.title}</span>
    </div>
  );
}

interface FailedCardProps {
  creation: TaskCreation;
  onRetry: () => void;
  onDiscard: () => void;
}

function FailedCard({ creation, onRetry, onDiscard }: FailedCardProps) {
  return (
    <div className={classNames(cardStyles.card, cardStyles.failed)} data-creation="failed">
      <span className={cardStyles.title}>{creation.title}</span>
      <p className={styles.reason} role="alert">
        Not saved: {creation.reason}
      </p>
      <span className={styles.actions}>
        <Button variant="link" aria-label={`Retry “${creation.title}”`} onClick={onRetry}>
          Retry
        </Button>
        <Button variant="link" aria-label={`Discard “${creation.title}”`} onClick={onDiscard}>
          Discard
        </Button>
      </span>
    </div>
  );
}
