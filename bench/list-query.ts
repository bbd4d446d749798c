/** The one list every row measures: a column of a project in board order, as `?status=…&limit=…` asks. */
import type { TaskFilters } from '../supabase/functions/api/tasks/tasks.queries.ts';
import type { TaskStatus } from '../supabase/functions/_shared/api-types.ts';

export const LISTED_STATUS: TaskStatus = 'todo';
export const LIST_LIMIT = 50;

export function columnFilter(status: TaskStatus): TaskFilters {
  return {
    statuses: [status],
    priorities: null,
    unassigned: false,
    assigneeIds: null,
    labelIds: null,
    text: null,
    dueBefore: null,
    dueAfter: null,
  };
}
