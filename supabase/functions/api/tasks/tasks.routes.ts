/**
 * Tasks: created and listed in their project (/v1/workspaces/{slug}/projects/{key}/tasks), read by key
 * (/v1/workspaces/{slug}/tasks/{KEY-number}), and by id, flat, for everything else (/v1/tasks/{id}[/move]).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import { CONCURRENT_TASK_SEARCHES_PER_USER } from '../../_shared/limits.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { toFieldErrors } from '../http/field-errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { projectAddressOf, shapedPathParam, slugOf, taskIdOf } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { searchSlots } from './search-slots.ts';
import { DEFAULT_TASK_SORT, TASK_SORTS, TaskSortKey } from './task-order.ts';
import {
  CreateTaskBodySchema,
  DueDateSchema,
  MoveTaskBodySchema,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TaskKeySchema,
  TaskSearchSchema,
  UpdateTaskBodySchema,
} from './tasks.schemas.ts';
import {
  createTask,
  deleteTask,
  getTask,
  getTaskByKey,
  listTasks,
  moveTask,
  updateTask,
  type TaskKey,
} from './tasks.service.ts';

/** `a,b` (and `?x=a&x=b`, joined so by `repeated`): distinct values of `values`. */
function commaList<const Values extends readonly [string, ...string[]]>(values: Values) {
  const allowed = z.enum(values);
  return z.string().transform((text, context) => {
    const items = text.split(',');
    if (items.every((item) => allowed.safeParse(item).success)) {
      return [...new Set(items)] as Values[number][];
    }
    context.issues.push({
      code: 'custom',
      message: `must be one or more of ${values.join(', ')}, separated by commas`,
      input: text,
    });
    return z.NEVER;
  });
}

const StatusList = commaList(TASK_STATUSES);
const PriorityList = commaList(TASK_PRIORITIES);

const ListTasksQuery = z.object({
  ...pageParameters(TaskSortKey),
  sort: z.enum(TASK_SORTS, `must be one of ${TASK_SORTS.join(', ')}`).default(DEFAULT_TASK_SORT),
  status: StatusList.optional(),
  priority: PriorityList.optional(),
  assignee: z.union([z.enum(['me', 'none']), z.uuid()], 'must be me, none or the id of a user').optional(),
  label: z.uuid('must be the id of a label').optional(),
  q: TaskSearchSchema.optional(),
  due_before: DueDateSchema.optional(),
  due_after: DueDateSchema.optional(),
});

/** `ENG-42` → the project's key and the number; a key of another shape names no task. */
function taskKeyOf(c: Context<AuthenticatedEnv>): TaskKey {
  const key = shapedPathParam(
    c,
    'task_key',
    TaskKeySchema,
    () => new AppError('not_found', 'A task key is a project key, a hyphen and a number, such as ENG-42.'),
  );
  const hyphen = key.lastIndexOf('-');
  return { projectKey: key.slice(0, hyphen), number: Number(key.slice(hyphen + 1)) };
}

/** The list's query; `status` and `priority` may also be repeated, which `queryOf` alone would not see. */
function withRepeatedLists(c: Context, query: z.output<typeof ListTasksQuery>) {
  return {
    ...query,
    status: repeated(c, 'status', StatusList) ?? query.status,
    priority: repeated(c, 'priority', PriorityList) ?? query.priority,
  };
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

export const tasksRoutes = ({ db }: Pick<AppDeps, 'db'>) => {
  // This instance's searches in progress; a list without `q` reads from an index and takes no slot.
  const searches = searchSlots(CONCURRENT_TASK_SEARCHES_PER_USER);
  return new Hono<AuthenticatedEnv>()
    .post('/workspaces/:slug/projects/:key/tasks', async (c) => {
      const address = projectAddressOf(c);
      const request = await readJsonBody(c, CreateTaskBodySchema);
      const task = await createTask(db, c.var.principal, address, request);
      // Relative to the request's own URL (…/projects/{key}/tasks), so it holds behind any gateway prefix.
      c.header('Location', `../../../../tasks/${task.id}`);
      return jsonWithETag(c, task, 201);
    })
    .get('/workspaces/:slug/projects/:key/tasks', queryOf(ListTasksQuery), async (c) => {
      const { limit, cursor, sort, status, priority, assignee, label, q, due_before, due_after } =
        withRepeatedLists(c, c.var.query);
      if (cursor && cursor[0] !== sort) {
        throw new AppError(
          'bad_request',
          `Query parameter "cursor": it was issued for sort=${cursor[0]}, not sort=${sort}.`,
          {
            errors: [{ path: 'query.cursor', code: 'invalid', message: `was issued for sort=${cursor[0]}` }],
          },
        );
      }
      const filters = {
        statuses: status ?? null,
        priorities: priority ?? null,
        assignee: assignee ?? null,
        labelId: label ?? null,
        text: q ?? null,
        dueBefore: due_before ?? null,
        dueAfter: due_after ?? null,
      };
      const address = projectAddressOf(c);
      const principal = c.var.principal;
      const list = () => listTasks(db, principal, address, sort, filters, { limit, cursor });
      return listResponse(c, await (q === undefined ? list() : searches.run(principal.user_id, list)));
    })
    .get('/workspaces/:slug/tasks/:task_key', async (c) => {
      const task = await getTaskByKey(db, c.var.principal, slugOf(c), taskKeyOf(c));
      // Relative to the request's URL (…/workspaces/{slug}/tasks/{key}): the task's own address.
      c.header('Content-Location', `../../../tasks/${task.id}`);
      return jsonWithETag(c, task);
    })
    .get('/tasks/:id', async (c) => {
      return jsonWithETag(c, await getTask(db, c.var.principal, taskIdOf(c)));
    })
    .patch('/tasks/:id', async (c) => {
      const id = taskIdOf(c);
      const changes = await readMergePatch(c, UpdateTaskBodySchema);
      return jsonWithETag(c, await updateTask(db, c.var.principal, id, changes, readIfMatch(c)));
    })
    .delete('/tasks/:id', async (c) => {
      await deleteTask(db, c.var.principal, taskIdOf(c), readIfMatch(c));
      return c.body(null, 204);
    })
    .post('/tasks/:id/move', async (c) => {
      const id = taskIdOf(c);
      const move = await readJsonBody(c, MoveTaskBodySchema);
      return jsonWithETag(c, await moveTask(db, c.var.principal, id, move, readIfMatch(c)));
    });
};
