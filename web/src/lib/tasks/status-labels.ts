import type { components } from '@api-spec/schema.d.ts';

export type TaskStatus = components['schemas']['TaskStatus'];

/** Each status as the app names it, on boards, in menus and in the import's mapping. */
export const STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  backlog: 'Backlog',
  todo: 'Todo',
  in_progress: 'In progress',
  in_review: 'In review',
  done: 'Done',
  canceled: 'Canceled',
};
