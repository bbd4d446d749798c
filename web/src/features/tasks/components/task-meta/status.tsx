import { STATUS_LABELS, type TaskStatus } from '../../../../lib/tasks/status-labels.ts';
import styles from './task-meta.module.css';

export { STATUS_LABELS, type TaskStatus };

/** How much of the circle is filled, Linear-style: the further along, the fuller. */
const PROGRESS: Readonly<Record<TaskStatus, number>> = {
  backlog: 0,
  todo: 0,
  in_progress: 0.5,
  in_review: 0.75,
  done: 1,
  canceled: 1,
};

/**
 * A small circle that shows a status at a glance; decorative, since the status is always named beside it.
 * A finished task's circle is filled, and its tick or cross is cut out of the fill in the surface colour.
 */
export function StatusIcon({ status }: { status: TaskStatus }) {
  const progress = PROGRESS[status];
  const radius = 3.5;
  const circumference = 2 * Math.PI * radius;
  return (
    <svg
      className={styles.statusIcon}
      data-status={status}
      viewBox="0 0 14 14"
      width="14"
      height="14"
      aria-hidden="true"
    >
      <circle
        cx="7"
        cy="7"
        r="6"
        fill={progress === 1 ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.5"
        strokeDasharray={status === 'backlog' ? '2 2' : undefined}
      />
      {status === 'done' && (
        <path
          d="M4.2 7.2l1.9 1.9 3.7-3.9"
          fill="none"
          stroke="var(--on-status)"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      )}
      {status === 'canceled' && (
        <path
          d="M4.8 4.8l4.4 4.4M9.2 4.8l-4.4 4.4"
          stroke="var(--on-status)"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
      )}
      {progress > 0 && progress < 1 && (
        <circle
          cx="7"
          cy="7"
          r={radius}
          fill="none"
          stroke="currentColor"
          strokeWidth={radius * 2}
          strokeDasharray={`${circumference * progress} ${circumference}`}
          transform="rotate(-90 7 7)"
        />
      )}
    </svg>
  );
}
