import type { components } from '@api-spec/schema.d.ts';
import styles from './task-meta.module.css';

export type TaskPriority = components['schemas']['TaskPriority'];

export const PRIORITY_LABELS: Readonly<Record<TaskPriority, string>> = {
  none: 'No priority',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};

const BARS: Readonly<Record<Exclude<TaskPriority, 'urgent'>, number>> = {
  none: 0,
  low: 1,
  medium: 2,
  high: 3,
};

/** Signal bars (or a red mark for urgent); pass `label` when no text names the priority beside it. */
export function PriorityIcon({ priority, label }: { priority: TaskPriority; label?: boolean }) {
  const a11y = label ? { role: 'img', 'aria-label': PRIORITY_LABELS[priority] } : { 'aria-hidden': true };
  if (priority === 'urgent') {
    return (
      <svg className={styles.urgent} viewBox="0 0 14 14" width="14" height="14" {...a11y}>
        <rect x="1" y="1" width="12" height="12" rx="3" fill="currentColor" />
        <path d="M7 3.8v4M7 9.6v.6" stroke="var(--on-status)" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
    );
  }
  const filled = BARS[priority];
  return (
    <svg className={styles.priorityIcon} viewBox="0 0 14 14" width="14" height="14" {...a11y}>
      {[0, 1, 2].map((bar) => (
        <rect
          key={bar}
          x={1.5 + bar * 4}
          y={priority === 'none' ? 6.25 : 9 - bar * 3}
          width="3"
          height={priority === 'none' ? 1.5 : 4 + bar * 3}
          rx="1"
          fill="currentColor"
          opacity={priority === 'none' || bar < filled ? 1 : 0.3}
        />
      ))}
    </svg>
  );
}
