import { Link } from '@tanstack/react-router';
import { forwardRef, memo, type AnchorHTMLAttributes, type CSSProperties } from 'react';
import { Avatar } from '../../../../components/ui/avatar.tsx';
import { classNames } from '../../../../components/ui/class-names.ts';
import type { Task } from '../../api/list-tasks.ts';
import { formatDueDate, isOverdue } from '../../../../lib/dates/due-date.ts';
import { LabelChip } from '../task-meta/label-chip.tsx';
import { PriorityIcon } from '../task-meta/priority.tsx';
import type { BoardPeople } from './board-people.ts';
import styles from './task-card.module.css';

/** How long the pointer rests on a card before the task's screen loads (the router's default is 50 ms). */
const CARD_PRELOAD_DELAY_MS = 300;

interface TaskCardProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'children'> {
  task: Task;
  slug: string;
  projectKey: string;
  people: BoardPeople;
  /** The copy that follows the pointer while dragging (not a link, not focusable). */
  overlay?: boolean;
  dragging?: boolean;
  style?: CSSProperties;
}

/**
 * A task on the board: its key, title, priority, assignee, labels and due date. A link to the task's
 * panel carrying `data-task-key`, so the panel gives focus back to it when it closes. Memoized: a drag
 * draws every sortable card again (dnd-kit's context), and the link is costly to draw.
 */
export const TaskCard = memo(
  forwardRef<HTMLAnchorElement, TaskCardProps>(function TaskCard(
    { task, slug, projectKey, people, overlay = false, dragging = false, className, ...anchor },
    ref,
  ) {
    const body = <CardBody task={task} people={people} />;
    const classes = classNames(
      styles.card,
      dragging && styles.dragging,
      overlay && styles.overlay,
      className,
    );
    if (overlay) {
      return (
        <div className={classes} aria-hidden="true">
          {body}
        </div>
      );
    }
    return (
      <Link
        ref={ref}
        to="/w/$slug/p/$key/t/$number"
        params={{ slug, key: projectKey, number: task.number }}
        search={(previous) => previous}
        className={classes}
        data-task-key={task.key}
        // A pointer that rests on a card may open it; one that presses it and moves is dragging it.
        preloadDelay={CARD_PRELOAD_DELAY_MS}
        {...anchor}
      >
        {body}
      </Link>
    );
  }),
);

function CardBody({ task, people }: { task: Task; people: BoardPeople }) {
  const assignee = task.assignee_id ? people.members.get(task.assignee_id) : undefined;
  const labels = task.label_ids.flatMap((id) => people.labels.get(id) ?? []);
  const overdue = task.due_date !== null && isOverdue(task.due_date) && task.status !== 'done';
  // Only what the task has: a one-line task without labels or a due date is two short rows.
  return (
    <>
      <span className={styles.top}>
        {task.priority !== 'none' && <PriorityIcon priority={task.priority} label />}
        <span className={styles.key}>{task.key}</span>
        {assignee && <Avatar name={assignee.name} id={assignee.id} src={assignee.avatarUrl} />}
      </span>
      <span className={styles.title}>{task.title}</span>
      {(labels.length > 0 || task.due_date || task.checklist.total > 0) && (
        <span className={styles.meta}>
          {task.checklist.total > 0 && <ChecklistProgress {...task.checklist} />}
          {labels.map((label) => (
            <LabelChip key={label.id} name={label.name} color={label.color} />
          ))}
          {task.due_date && (
            <span className={classNames(styles.due, overdue && styles.overdue)}>
              {overdue ? 'Overdue · ' : 'Due '}
              {formatDueDate(task.due_date)}
            </span>
          )}
        </span>
      )}
    </>
  );
}

/** How far the task's checklist is: "2/5", with its meaning said in words. */
function ChecklistProgress({ done, total }: { done: number; total: number }) {
  const complete = done === total;
  return (
    <span
      className={classNames(styles.checklist, complete && styles.checklistDone)}
      role="img"
      aria-label={`${done} of ${total} checklist items done`}
    >
      <svg viewBox="0 0 14 14" width="12" height="12" aria-hidden="true">
        <rect
          x="1.5"
          y="1.5"
          width="11"
          height="11"
          rx="3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.4"
        />
        <path
          d="M4.5 7.2 6.3 9l3.2-3.6"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {done}/{total}
    </span>
  );
}
