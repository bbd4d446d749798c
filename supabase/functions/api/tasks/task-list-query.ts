/**
 * The query strings of the task lists and counts (listTasks, listWorkspaceTasks, countProjectTasks,
 * countWorkspaceTasks), written once: the same filters everywhere; the lists add the sort and the page,
 * the workspace's operations add `project`. A list parameter is one value, a comma-separated list, or the
 * parameter repeated.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import { toFieldErrors } from '../http/field-errors.ts';
import { pageParameters } from '../http/pagination.ts';
import { ProjectKeySchema } from '../projects/projects.schemas.ts';
import { DEFAULT_TASK_SORT, TaskSortKey, WorkspaceTaskSortKey } from './task-order.ts';
import {
  DueDateSchema,
  TASK_PRIORITIES,
  TASK_SORTS,
  TASK_STATUSES,
  TaskPrioritySchema,
  TaskSearchSchema,
  TaskStatusSchema,
} from './tasks.schemas.ts';
import type { TaskListFilters } from './tasks.service.ts';

/**
 * `a,b` (and `?x=a&x=b`, joined so by `repeated`): the distinct items, each valid for `item`, at most
 * `max` of them when given.
 */
function commaList<Item extends string>(item: z.ZodType<Item, string>, message: string, max?: number) {
  return z.string().transform((text, context) => {
    const items = text.split(',');
    const distinct = [...new Set(items)] as Item[];
    if (!items.every((value) => item.safeParse(value).success)) {
      context.issues.push({ code: 'custom', message, input: text });
    } else if (max !== undefined && distinct.length > max) {
      context.issues.push({ code: 'custom', message: `must name at most ${max} values`, input: text });
    } else return distinct;
    return z.NEVER;
  });
}

const oneOrMoreOf = (values: readonly string[]) =>
  `must be one or more of ${values.join(', ')}, separated by commas`;

/** How many users or labels one list may filter on. */
export const TASK_FILTER_MAX_VALUES = 20;

const AssigneeSchema = z.union([z.enum(['me', 'none']), z.uuid()]);

const LIST_PARAMETERS = {
  status: commaList(TaskStatusSchema, oneOrMoreOf(TASK_STATUSES)),
  priority: commaList(TaskPrioritySchema, oneOrMoreOf(TASK_PRIORITIES)),
  assignee: commaList(
    AssigneeSchema,
    'must be one or more of me, none or the id of a user, separated by commas',
    TASK_FILTER_MAX_VALUES,
  ),
  label: commaList(
    z.uuid(),
    'must be the ids of one or more labels, separated by commas',
    TASK_FILTER_MAX_VALUES,
  ),
  project: commaList(ProjectKeySchema, 'must be one or more project keys (such as ENG), separated by commas'),
};
type ListParameter = keyof typeof LIST_PARAMETERS;

const FILTERS = {
  status: LIST_PARAMETERS.status.optional(),
  priority: LIST_PARAMETERS.priority.optional(),
  assignee: LIST_PARAMETERS.assignee.optional(),
  label: LIST_PARAMETERS.label.optional(),
  q: TaskSearchSchema.optional(),
  due_before: DueDateSchema.optional(),
  due_after: DueDateSchema.optional(),
};
const PROJECTS = { project: LIST_PARAMETERS.project.optional() };
const SORT = {
  sort: z.enum(TASK_SORTS, `must be one of ${TASK_SORTS.join(', ')}`).default(DEFAULT_TASK_SORT),
};

export const ListTasksQuery = z.object({ ...pageParameters(TaskSortKey), ...SORT, ...FILTERS });
export const ListWorkspaceTasksQuery = z.object({
  ...pageParameters(WorkspaceTaskSortKey),
  ...SORT,
  ...PROJECTS,
  ...FILTERS,
});
export const CountTasksQuery = z.object(FILTERS);
export const CountWorkspaceTasksQuery = z.object({ ...PROJECTS, ...FILTERS });

/**
 * The query as `queryOf` read it, its list parameters read from every value sent instead of the first
 * (a parameter sent more than once is in the query, as the route's schema declares it).
 */
export function withRepeatedLists<Query extends object>(c: Context, query: Query): Query {
  const withLists = { ...query } as Record<string, unknown>;
  for (const name of Object.keys(LIST_PARAMETERS) as ListParameter[]) {
    const values = name in query ? repeated(c, name, LIST_PARAMETERS[name]) : undefined;
    if (values !== undefined) withLists[name] = values;
  }
  return withLists as Query;
}

/** The values of a list parameter sent more than once, joined and read as one; undefined otherwise. */
function repeated<T>(c: Context, name: string, schema: z.ZodType<T, string>): T | undefined {
  const values = c.req.queries(name) ?? [];
  if (values.length < 2) return undefined;
  const joined = values.join(',');
  const result = z.object({ [name]: schema }).safeParse({ [name]: joined });
  if (result.success) return result.data[name] as T;
  const errors = toFieldErrors(result.error.issues, 'query', { [name]: joined });
  throw new AppError('bad_request', `Query parameter "${name}": ${errors[0]?.message ?? 'is not valid'}.`, {
    errors,
  });
}

/** The filters of a query read with one of the schemas above, as the service takes them. */
export function taskFiltersOf(query: z.output<typeof CountTasksQuery>): TaskListFilters {
  return {
    statuses: query.status ?? null,
    priorities: query.priority ?? null,
    assignees: query.assignee ?? null,
    labelIds: query.label ?? null,
    text: query.q ?? null,
    dueBefore: query.due_before ?? null,
    dueAfter: query.due_after ?? null,
  };
}

/** A cursor pages only the sort it was issued for: `400` naming it otherwise. */
export function requireCursorOfSort(sort: string, cursor: readonly unknown[] | undefined): void {
  if (!cursor || cursor[0] === sort) return;
  throw new AppError(
    'bad_request',
    `Query parameter "cursor": it was issued for sort=${String(cursor[0])}, not sort=${sort}.`,
    {
      errors: [
        { path: 'query.cursor', code: 'invalid', message: `was issued for sort=${String(cursor[0])}` },
      ],
    },
  );
}
