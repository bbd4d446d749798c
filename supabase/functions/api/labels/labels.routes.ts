/** /v1/workspaces/{slug}/labels[/{id}] — a workspace's labels for tasks. */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, slugOf, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { LowerNameIdKey } from './label-order.ts';
import { CreateLabelBodySchema, UpdateLabelBodySchema } from './labels.schemas.ts';
import {
  createLabel,
  deleteLabel,
  getLabel,
  labelNotFound,
  listLabels,
  updateLabel,
  type LabelAddress,
} from './labels.service.ts';

const ListLabelsQuery = z.object(pageParameters(LowerNameIdKey));

/** The label's address; an `{id}` that is not a UUID names no label. */
function labelAddressOf(c: Context<AuthenticatedEnv>): LabelAddress {
  return { slug: slugOf(c), id: shapedPathParam(c, 'id', UuidShape, labelNotFound) };
}

export const labelsRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/workspaces/:slug/labels', async (c) => {
      const request = await readJsonBody(c, CreateLabelBodySchema);
      const label = await createLabel(db, c.var.principal, slugOf(c), request);
      // Relative to the request's own URL (…/labels), so it holds behind any gateway prefix.
      c.header('Location', `labels/${label.id}`);
      return jsonWithETag(c, label, 201);
    })
    .get('/workspaces/:slug/labels', queryOf(ListLabelsQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listLabels(db, c.var.principal, slugOf(c), { limit, cursor }));
    })
    .get('/workspaces/:slug/labels/:id', async (c) => {
      return jsonWithETag(c, await getLabel(db, c.var.principal, labelAddressOf(c)));
    })
    .patch('/workspaces/:slug/labels/:id', async (c) => {
      const address = labelAddressOf(c);
      const changes = await readMergePatch(c, UpdateLabelBodySchema);
      return jsonWithETag(c, await updateLabel(db, c.var.principal, address, changes, readIfMatch(c)));
    })
    .delete('/workspaces/:slug/labels/:id', async (c) => {
      await deleteLabel(db, c.var.principal, labelAddressOf(c), readIfMatch(c));
      return c.body(null, 204);
    });
