/** /v1/workspaces/{slug}/projects[/{key}] — a workspace's projects, addressed by key. */
import { Hono } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { drainAfterAnswer } from '../files/storage-removals.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { projectAddressOf, slugOf } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { CreateProjectBodySchema, UpdateProjectBodySchema } from './projects.schemas.ts';
import { createProject, deleteProject, getProject, listProjects, updateProject } from './projects.service.ts';

const ListProjectsQuery = z.object({
  ...pageParameters(CreatedAtIdKey),
  include_archived: z
    .enum(['true', 'false'], 'must be "true" or "false"')
    .default('false')
    .transform((value) => value === 'true'),
});

export const projectsRoutes = ({ db, storage, logger }: Pick<AppDeps, 'db' | 'storage' | 'logger'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/workspaces/:slug/projects', async (c) => {
      const request = await readJsonBody(c, CreateProjectBodySchema);
      const project = await createProject(db, c.var.principal, slugOf(c), request);
      // Relative to the request's own URL (…/projects), so it holds behind any gateway prefix.
      c.header('Location', `projects/${project.key}`);
      return jsonWithETag(c, project, 201);
    })
    .get('/workspaces/:slug/projects', queryOf(ListProjectsQuery), async (c) => {
      const { limit, cursor, include_archived } = c.var.query;
      const page = await listProjects(db, c.var.principal, slugOf(c), { limit, cursor }, include_archived);
      return listResponse(c, page);
    })
    .get('/workspaces/:slug/projects/:key', async (c) => {
      return jsonWithETag(c, await getProject(db, c.var.principal, projectAddressOf(c)));
    })
    .patch('/workspaces/:slug/projects/:key', async (c) => {
      const address = projectAddressOf(c);
      const changes = await readMergePatch(c, UpdateProjectBodySchema);
      const project = await updateProject(db, c.var.principal, address, changes, readIfMatch(c));
      // Relative to the request's URL (…/projects/{old key}): the address after a change of key.
      c.header('Content-Location', project.key);
      return jsonWithETag(c, project);
    })
    .delete('/workspaces/:slug/projects/:key', async (c) => {
      const deleted = await deleteProject(db, c.var.principal, projectAddressOf(c), readIfMatch(c));
      // The deletion has committed (DELETE takes no Idempotency-Key): its files go after the answer.
      if (deleted.queuedFiles) drainAfterAnswer(db, { storage, logger });
      return c.body(null, 204);
    });
