/**
 * The rules for a task (docs/product.md#states, #validation), written once: the API validates with them and
 * the web's forms do too. Imports nothing but zod, the limits, the shared vocabulary and types (erased), so
 * the browser bundle can import this file as is.
 */
import { z } from 'zod';
import { TASK_PRIORITIES, TASK_SORTS, TASK_STATUSES } from '../../_shared/vocabulary/spec-values.ts';
import { LABELS_PER_TASK, MENTIONS_PER_TEXT, TASK_SEARCH_MAX_LENGTH } from '../../_shared/limits.ts';
import { countMentions } from '../../_shared/mentions.ts';

/** The board's columns are TASK_STATUSES in order (Postgres orders them with `private.task_status_rank`). */
export { TASK_PRIORITIES, TASK_SORTS, TASK_STATUSES };
export type TaskSort = (typeof TASK_SORTS)[number];
export const TASK_TITLE_LENGTH = { min: 1, max: 200 } as const;
export const TASK_DESCRIPTION_MAX_LENGTH = 20_000;

export const TaskStatusSchema = z.enum(TASK_STATUSES, `must be one of ${TASK_STATUSES.join(', ')}`);
export const TaskPrioritySchema = z.enum(TASK_PRIORITIES, `must be one of ${TASK_PRIORITIES.join(', ')}`);

export const TaskTitleSchema = z
  .string()
  .trim()
  .min(TASK_TITLE_LENGTH.min, 'must not be empty')
  .max(TASK_TITLE_LENGTH.max, `must be at most ${TASK_TITLE_LENGTH.max} characters`);

/** Markdown, stored as sent; empty means none. Not nullable: a merge patch clears it with `""`. */
export const TaskDescriptionSchema = z
  .string()
  .max(TASK_DESCRIPTION_MAX_LENGTH, `must be at most ${TASK_DESCRIPTION_MAX_LENGTH} characters`)
  .refine(
    (description) => countMentions(description) <= MENTIONS_PER_TEXT,
    `must mention at most ${MENTIONS_PER_TEXT} people (mentions_per_text)`,
  );

export const TaskAssigneeIdSchema = z.uuid('must be the id of a member (a UUID), or null').nullable();

/**
 * `YYYY-MM-DD`, a day the calendar has (no February 30th). Year 0 is refused: Postgres' calendar has
 * none (1 BC comes before 1 AD).
 */
export const DueDateSchema = z.iso
  .date('must be a calendar date written YYYY-MM-DD')
  .refine((date) => !date.startsWith('0000'), 'must be a date from the year 1 on');

export const TaskLabelIdsSchema = z
  .array(z.uuid('must be the id of a label (a UUID)'))
  .max(LABELS_PER_TASK, `must name at most ${LABELS_PER_TASK} labels`)
  .refine((ids) => new Set(ids).size === ids.length, 'must not name a label twice');

/** `q` of a task list: text to find in the title or the description. */
export const TaskSearchSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(TASK_SEARCH_MAX_LENGTH, `must be at most ${TASK_SEARCH_MAX_LENGTH} characters`)
  .refine((text) => !text.includes('\0'), 'must not contain the NUL character');

const MAX_TASK_NUMBER = 2_147_483_647;

/** A task's key, `ENG-42`: its project's key, a hyphen and its number (a Postgres integer). */
export const TaskKeySchema = z
  .string()
  .regex(
    /^[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,9}$/,
    'must be a project key, a hyphen and a number, such as ENG-42',
  )
  .refine((key) => Number(key.slice(key.lastIndexOf('-') + 1)) <= MAX_TASK_NUMBER, 'has too large a number');

export const CreateTaskBodySchema = z.strictObject({
  title: TaskTitleSchema,
  description: TaskDescriptionSchema.default(''),
  status: TaskStatusSchema.default('todo'),
  priority: TaskPrioritySchema.default('none'),
  assignee_id: TaskAssigneeIdSchema.default(null),
  due_date: DueDateSchema.nullable().default(null),
  label_ids: TaskLabelIdsSchema.default([]),
});

/** `PATCH /v1/tasks/{id}`: JSON Merge Patch over the writable fields. The place in a column is moved, not patched. */
export const UpdateTaskBodySchema = z.strictObject({
  title: TaskTitleSchema.optional(),
  description: TaskDescriptionSchema.optional(),
  status: TaskStatusSchema.optional(),
  priority: TaskPrioritySchema.optional(),
  assignee_id: TaskAssigneeIdSchema.optional(),
  due_date: DueDateSchema.nullable().optional(),
  label_ids: TaskLabelIdsSchema.optional(),
});

const NeighbourIdSchema = z.uuid('must be the id of a task (a UUID), or null').nullable().optional();

/** `POST /v1/tasks/{id}/move`: the column, and the neighbours there to land between. */
export const MoveTaskBodySchema = z.strictObject({
  status: TaskStatusSchema,
  after_id: NeighbourIdSchema,
  before_id: NeighbourIdSchema,
});
