/**
 * Tasks: created, listed and counted in their project (/v1/workspaces/{slug}/projects/{key}/tasks,
 * …/task-counts), listed and counted across the workspace (/v1/workspaces/{slug}/tasks, …/task-counts),
 * read by key (/v1/workspaces/{slug}/tasks/{KEY-number}), and by id, flat, for everything else
 * (/v1/tasks/{id}[/move|/restore]).
 */
import { Hono, type Context } from 'hono';
import { AppError } from '../../_shared/errors.ts';
import { CONCURRENT_TASK_SEARCHES_PER_USER } from '../../_shared/limits.ts';
import type { Principal } from '../../_shared/principal.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { drainAfterAnswer } from '../files/storage-removals.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse } from '../http/pagination.ts';
import { projectAddressOf, shapedPathParam, slugOf } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { searchSlots } from './search-slots.ts';
import { taskIdOf } from './task-access.ts';
import {
  CountTasksQuery,
  CountWorkspaceTasksQuery,
  ListTasksQuery,
  ListWorkspaceTasksQuery,
  requireCursorOfSort,
  taskFiltersOf,
  withRepeatedLists,
} from './task-list-query.ts';
import {
  CreateTaskBodySchema,
  MoveTaskBodySchema,
  TaskKeySchema,
  UpdateTaskBodySchema,
} from './tasks.schemas.ts';
import {
  countProjectTasks,
  countWorkspaceTasks,
  createTask,
  deleteTask,
  getTask,
  getTaskByKey,
  listTasks,
  listWorkspaceTasks,
  moveTask,
  restoreTask,
  updateTask,
  type TaskKey,
} from './tasks.service.ts';

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

export const tasksRoutes = ({ db, storage, logger }: Pick<AppDeps, 'db' | 'storage' | 'logger'>) => {
  const files = { storage, logger };
  // This instance's searches in progress; a list without `q` reads from an index and takes no slot.
  const searches = searchSlots(CONCURRENT_TASK_SEARCHES_PER_USER);
  const searching = <T>(principal: Principal, q: string | undefined, work: () => Promise<T>) =>
    q === undefined ? work() : searches.run(principal.user_id, work);
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
      const { limit, cursor, sort, ...query } = withRepeatedLists(c, c.var.query);
      requireCursorOfSort(sort, cursor);
      const address = projectAddressOf(c);
      const filters = taskFiltersOf(query);
      const list = () => listTasks(db, c.var.principal, address, sort, filters, { limit, cursor });
      return listResponse(c, await searching(c.var.principal, query.q, list));
    })
    .get('/workspaces/:slug/projects/:key/task-counts', queryOf(CountTasksQuery), async (c) => {
      const query = withRepeatedLists(c, c.var.query);
      const address = projectAddressOf(c);
      const count = () => countProjectTasks(db, c.var.principal, address, taskFiltersOf(query));
      return c.json(await searching(c.var.principal, query.q, count), 200);
    })
    .get('/workspaces/:slug/tasks', queryOf(ListWorkspaceTasksQuery), async (c) => {
      const { limit, cursor, sort, project, ...query } = withRepeatedLists(c, c.var.query);
      requireCursorOfSort(sort, cursor);
      const [slug, filters] = [slugOf(c), taskFiltersOf(query)];
      const list = () =>
        listWorkspaceTasks(db, c.var.principal, slug, project ?? null, sort, filters, { limit, cursor });
      return listResponse(c, await searching(c.var.principal, query.q, list));
    })
    .get('/workspaces/:slug/task-counts', queryOf(CountWorkspaceTasksQuery), async (c) => {
      const { project, ...query } = withRepeatedLists(c, c.var.query);
      const [slug, filters] = [slugOf(c), taskFiltersOf(query)];
      const count = () => countWorkspaceTasks(db, c.var.principal, slug, project ?? null, filters);
      return c.json(await searching(c.var.principal, query.q, count), 200);
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
      const { queuedFiles } = await deleteTask(db, c.var.principal, taskIdOf(c), readIfMatch(c));
      // The deletion has committed (DELETE takes no Idempotency-Key): its files go after the answer.
      if (queuedFiles) drainAfterAnswer(db, files);
      return c.body(null, 204);
    })
    .post('/tasks/:id/restore', async (c) => {
      return jsonWithETag(c, await restoreTask(db, c.var.principal, taskIdOf(c)));
    })
    .post('/tasks/:id/move', async (c) => {
      const id = taskIdOf(c);
      const move = await readJsonBody(c, MoveTaskBodySchema);
      return jsonWithETag(c, await moveTask(db, c.var.principal, id, move, readIfMatch(c)));
    });
};
