import { TASK_PRIORITIES, TASK_SORTS, TaskSearchSchema } from '@api/tasks/tasks.schemas.ts';
import * as z from 'zod/mini';
import type { TaskListQuery } from './api/query-keys.ts';

/** The list view's sorts: the API's `sort` values, one per sortable column, each way. */
export const LIST_SORTS = TASK_SORTS;

export type ListSort = (typeof LIST_SORTS)[number];

const PRIORITY_LIST = new RegExp(`^(${TASK_PRIORITIES.join('|')})(,(${TASK_PRIORITIES.join('|')}))*$`);

/**
 * The board's URL query (`?assignee=me&label=…&priority=high,urgent&q=billing&view=list&sort=-priority`):
 * the filters a shared link carries. Values the API's own rules refuse are dropped by `searchValidator`,
 * so an old or edited link opens with that filter unset. Numbers the router reads from the URL (`?q=42`)
 * are taken back as text.
 */
export const boardSearchSchema = z.object({
  view: z.optional(z.enum(['board', 'list'])),
  sort: z.optional(z.enum(LIST_SORTS)),
  assignee: z.optional(z.union([z.literal('me'), z.literal('none'), z.uuid()])),
  label: z.optional(z.uuid()),
  priority: z.optional(z.string().check(z.regex(PRIORITY_LIST))),
  q: z.optional(z.pipe(z.coerce.string(), TaskSearchSchema)),
});

export type BoardSearch = z.output<typeof boardSearchSchema>;

/** The filters of the search, as listTasks and countProjectTasks take them. */
export function filtersOf(search: BoardSearch): Pick<TaskListQuery, 'assignee' | 'label' | 'priority' | 'q'> {
  const { assignee, label, priority, q } = search;
  return { assignee, label, priority, q };
}

/** Whether any filter narrows the board (the view and the sort do not). */
export function isFiltered(search: BoardSearch): boolean {
  return Object.values(filtersOf(search)).some((value) => value !== undefined);
}

/** The search with every filter cleared, the view and sort kept. */
export function withoutFilters(search: BoardSearch): BoardSearch {
  return { view: search.view, sort: search.sort };
}
