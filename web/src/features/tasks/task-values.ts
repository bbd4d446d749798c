import type { components } from '@api-spec/schema.d.ts';

/**
 * The API's lists of task values, repeated here so that the board's first load does not import the API's
 * zod schemas (decision 0028). app/url-rules-agree.test.ts fails when they differ from tasks.schemas.ts.
 */

type TaskStatus = components['schemas']['TaskStatus'];
type TaskPriority = components['schemas']['TaskPriority'];

/** The board's columns, in the board's order. */
export const TASK_STATUSES = [
  'backlog',
  'todo',
  'in_progress',
  'in_review',
  'done',
  'canceled',
] as const satisfies readonly TaskStatus[];

/** From least to most pressing. */
export const TASK_PRIORITIES = [
  'none',
  'low',
  'medium',
  'high',
  'urgent',
] as const satisfies readonly TaskPriority[];

/** The orders a task list takes (`sort`); a `-` reverses one. */
export const TASK_SORTS = [
  'position',
  'updated_at',
  '-updated_at',
  'created_at',
  '-created_at',
  'priority',
  '-priority',
  'due_date',
  '-due_date',
] as const;

/** The longest text search the API takes (`q`). */
export const TASK_SEARCH_MAX_LENGTH = 100;
