/** /v1/workspaces and /v1/workspaces/{slug}: the caller's workspaces. */
import { Hono } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { drainAfterAnswer } from '../files/storage-removals.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { queryOf } from '../http/query-params.ts';
import { CreateWorkspaceBodySchema, UpdateWorkspaceBodySchema } from './workspaces.schemas.ts';
import {
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaces,
  updateWorkspace,
} from './workspaces.service.ts';

const ListWorkspacesQuery = z.object(pageParameters(CreatedAtIdKey));

export const workspacesRoutes = ({ db, storage, logger }: Pick<AppDeps, 'db' | 'storage' | 'logger'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/workspaces', async (c) => {
      const request = await readJsonBody(c, CreateWorkspaceBodySchema);
      const workspace = await createWorkspace(db, c.var.principal, request);
      // Relative to the request's own URL (…/v1/workspaces), so it holds behind any gateway prefix.
      c.header('Location', `workspaces/${workspace.slug}`);
      return jsonWithETag(c, workspace, 201);
    })
    .get('/workspaces', queryOf(ListWorkspacesQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listWorkspaces(db, c.var.principal, { limit, cursor }));
    })
    .get('/workspaces/:slug', async (c) => {
      return jsonWithETag(c, await getWorkspace(db, c.var.principal, c.req.param('slug')));
    })
    .patch('/workspaces/:slug', async (c) => {
      const changes = await readMergePatch(c, UpdateWorkspaceBodySchema);
      const expected = readIfMatch(c);
      return jsonWithETag(
        c,
        await updateWorkspace(db, c.var.principal, c.req.param('slug'), changes, expected),
      );
    })
    .delete('/workspaces/:slug', async (c) => {
      const deleted = await deleteWorkspace(db, c.var.principal, c.req.param('slug'), readIfMatch(c));
      // The deletion has committed (DELETE takes no Idempotency-Key): its files go after the answer.
      if (deleted.queuedFiles) drainAfterAnswer(db, { storage, logger });
      return c.body(null, 204);
    });
