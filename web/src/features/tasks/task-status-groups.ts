import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';

type TaskStatus = (typeof TASK_STATUSES)[number];

/** Where a task's work is over: these columns start folded, and "open" counts leave them out. */
export const CLOSED_TASK_STATUSES: readonly TaskStatus[] = ['done', 'canceled'];

/** Every other status, in the spec's order. */
export const OPEN_TASK_STATUSES: readonly TaskStatus[] = TASK_STATUSES.filter(
  (status) => !CLOSED_TASK_STATUSES.includes(status),
);
