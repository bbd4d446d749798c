/** /v1/tasks/{id}/watchers and /v1/tasks/{id}/watch — who hears of a task's comments and status changes. */
import { Hono } from 'hono';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { taskIdOf } from '../tasks/task-access.ts';
import { listTaskWatchers, unwatchTask, watchTask } from './watchers.service.ts';

export const watchersRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .get('/tasks/:id/watchers', async (c) => {
      return c.json(await listTaskWatchers(db, c.var.principal, taskIdOf(c)), 200);
    })
    .put('/tasks/:id/watch', async (c) => {
      return c.json(await watchTask(db, c.var.principal, taskIdOf(c)), 200);
    })
    .delete('/tasks/:id/watch', async (c) => {
      return c.json(await unwatchTask(db, c.var.principal, taskIdOf(c)), 200);
    });
