/**
 * The orders a project's tasks are listed in (`?sort=`), and the key each one pages by. A key starts with
 * its sort's name, so a cursor issued for one sort is refused by another instead of paging it wrongly.
 * Every key ends in a column unique per task, so every order is total. Values are as Postgres wrote them.
 */
import { z } from 'zod';
import { KeyDate, KeyTimestamp } from '../../_shared/pages.ts';
import { ProjectKeySchema } from '../projects/projects.schemas.ts';
import { TASK_PRIORITIES, TASK_STATUSES, type TaskSort } from './tasks.schemas.ts';

/** Board order: by column, then by position, which is unique in its column. */
export const DEFAULT_TASK_SORT: TaskSort = 'position';

/** A position as this API writes them: fractional-index keys of letters and digits. */
const Position = z.string().regex(/^[0-9A-Za-z]{1,200}$/);
const Timestamp = KeyTimestamp;
/** Tasks without a due date sort last either way, under `infinity` or `-infinity`. */
const DueDateOrNone = z.union([KeyDate, z.literal('infinity'), z.literal('-infinity')]);

const keyOf = <Name extends TaskSort, A extends z.ZodType<string | number>, B extends z.ZodType<string>>(
  name: Name,
  first: A,
  second: B,
) => z.tuple([z.literal(name), first, second]);

/** The keys of the sorts but `position`, which end in the task's id, the same in a project and a workspace. */
const KEYS_BY_ID = [
  keyOf('updated_at', Timestamp, z.uuid()),
  keyOf('-updated_at', Timestamp, z.uuid()),
  keyOf('created_at', Timestamp, z.uuid()),
  keyOf('-created_at', Timestamp, z.uuid()),
  keyOf('priority', z.enum(TASK_PRIORITIES), z.uuid()),
  keyOf('-priority', z.enum(TASK_PRIORITIES), z.uuid()),
  keyOf('due_date', DueDateOrNone, z.uuid()),
  keyOf('-due_date', DueDateOrNone, z.uuid()),
] as const;

/** A column by its rank (private.task_status_rank): 1 for the first. */
const Rank = z.int().min(1).max(TASK_STATUSES.length);

export const TaskSortKey = z.union([keyOf('position', Rank, Position), ...KEYS_BY_ID]);
export type TaskSortKey = z.output<typeof TaskSortKey>;

/**
 * The keys of a list across a workspace's projects: `position` there goes project by project, so its key
 * starts with the project's; a project list's cursor is not one of these, nor the other way round.
 */
export const WorkspaceTaskSortKey = z.union([
  z.tuple([z.literal('position'), ProjectKeySchema, Rank, Position]),
  ...KEYS_BY_ID,
]);
export type WorkspaceTaskSortKey = z.output<typeof WorkspaceTaskSortKey>;
