import { coercedText, isUuid, oneOf, searchSchema, text, type UrlRule } from '../../lib/routing/url-rules.ts';
import type { TaskListQuery } from './api/query-keys.ts';
import { TASK_SEARCH_MAX_LENGTH } from '@shared/limits.ts';
import { TASK_PRIORITIES, TASK_SORTS } from '@shared/vocabulary/spec-values.ts';

/** The list view's sorts: the API's `sort` values, one per sortable column, each way. */
export const LIST_SORTS = TASK_SORTS;

export type ListSort = (typeof LIST_SORTS)[number];

const PRIORITY_LIST = new RegExp(`^(${TASK_PRIORITIES.join('|')})(,(${TASK_PRIORITIES.join('|')}))*$`);

/** How many assignees or labels one filter takes, as the API bounds them. */
export const FILTER_MAX_VALUES = 20;

/** `a,b,…`: every value valid, at most FILTER_MAX_VALUES distinct ones. */
function valueList(valid: (value: string) => boolean): UrlRule<string> {
  return text((list) => {
    const values = list.split(',');
    return values.every(valid) && new Set(values).size <= FILTER_MAX_VALUES;
  });
}

const assignee = valueList((value) => value === 'me' || value === 'none' || isUuid(value));

/** The values of a list filter (`a,b`), none when it is unset. */
export function valuesOf(list: string | undefined): string[] {
  return list === undefined ? [] : list.split(',');
}

/**
 * The board's URL query (`?assignee=me,none&label=…,…&priority=high,urgent&q=billing&view=list&sort=-priority`):
 * the filters a shared link carries. Values the API's own rules refuse are dropped by `searchValidator`,
 * so an old or edited link opens with that filter unset. Numbers the router reads from the URL (`?q=42`)
 * are taken back as text. Zod-free rules (decision 0028), held to the API's schemas by
 * app/url-rules-agree.test.ts.
 */
export const boardSearchSchema = searchSchema({
  view: oneOf(['board', 'list'] as const),
  sort: oneOf(LIST_SORTS),
  assignee,
  label: valueList(isUuid),
  priority: text((value) => PRIORITY_LIST.test(value)),
  q: coercedText(
    (value) => value.length >= 1 && value.length <= TASK_SEARCH_MAX_LENGTH && !value.includes('\0'),
  ),
});

export interface BoardSearch {
  view?: 'board' | 'list' | undefined;
  sort?: ListSort | undefined;
  assignee?: string | undefined;
  label?: string | undefined;
  priority?: string | undefined;
  q?: string | undefined;
}

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

/** What filtersHide reads of a task. */
export interface FilteredTask {
  title: string;
  description: string;
  priority: string;
  assignee_id: string | null;
  label_ids: readonly string[];
}

/**
 * Whether the board's filters leave the task out, by the rules the API filters by: any of the assignees
 * (`me` is `meId`; unknown, only an unassigned task is surely out), any of the labels, one of the
 * priorities, and the text in the title or the description whatever the case. For a task just created
 * on a filtered board, or changed live.
 */
export function filtersHide(search: BoardSearch, task: FilteredTask, meId?: string): boolean {
  const { assignee, label, priority, q } = search;
  return (
    (assignee !== undefined &&
      !valuesOf(assignee).some((value) => assigneeMatches(value, task.assignee_id, meId))) ||
    (label !== undefined && !valuesOf(label).some((value) => task.label_ids.includes(value))) ||
    (priority !== undefined && !priority.split(',').includes(task.priority)) ||
    (q !== undefined && !containsText(task, q))
  );
}

function assigneeMatches(assignee: string, assigneeId: string | null, meId: string | undefined): boolean {
  if (assignee === 'none') return assigneeId === null;
  if (assignee === 'me') return assigneeId !== null && (meId === undefined || assigneeId === meId);
  return assigneeId === assignee;
}

function containsText({ title, description }: FilteredTask, q: string): boolean {
  const wanted = q.toLowerCase();
  return title.toLowerCase().includes(wanted) || description.toLowerCase().includes(wanted);
}
