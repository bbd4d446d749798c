/** /v1/tasks/{id}/attachments and /v1/attachments/{id}[/complete|/download] — files on a task. */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { taskIdOf } from '../tasks/task-access.ts';
import { attachmentNotFound } from './attachment-errors.ts';
import { CreateAttachmentBodySchema } from './attachments.schemas.ts';
import {
  attachmentDownload,
  completeAttachment,
  createAttachment,
  deleteAttachment,
  getAttachment,
  listAttachments,
} from './attachments.service.ts';
import { uploadSweeper } from '../files/upload-sweep.ts';

const ListAttachmentsQuery = z.object(pageParameters(CreatedAtIdKey));

/** The `{id}` of /v1/attachments/{id}; anything but a UUID names no attachment. */
const attachmentIdOf = (c: Context<AuthenticatedEnv>): string =>
  shapedPathParam(c, 'id', UuidShape, attachmentNotFound);

export const attachmentsRoutes = ({
  db,
  storage,
  logger,
  sweepUploads = true,
}: Pick<AppDeps, 'db' | 'storage' | 'logger' | 'sweepUploads'>) => {
  const files = { storage, logger };
  const sweep = sweepUploads ? uploadSweeper(db, files) : () => Promise.resolve();
  return new Hono<AuthenticatedEnv>()
    .post('/tasks/:id/attachments', async (c) => {
      const taskId = taskIdOf(c);
      const request = await readJsonBody(c, CreateAttachmentBodySchema);
      const created = await createAttachment(db, files, c.var.principal, taskId, request);
      await sweep();
      // Relative to the request's own URL (…/v1/tasks/{id}/attachments), so it holds behind any gateway prefix.
      c.header('Location', `../../attachments/${created.attachment.id}`);
      return c.json(created, 201);
    })
    .get('/tasks/:id/attachments', queryOf(ListAttachmentsQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listAttachments(db, c.var.principal, taskIdOf(c), { limit, cursor }));
    })
    .get('/attachments/:id', async (c) => {
      return jsonWithETag(c, await getAttachment(db, c.var.principal, attachmentIdOf(c)));
    })
    .post('/attachments/:id/complete', async (c) => {
      return jsonWithETag(c, await completeAttachment(db, files, c.var.principal, attachmentIdOf(c)));
    })
    .get('/attachments/:id/download', async (c) => {
      return c.json(await attachmentDownload(db, files, c.var.principal, attachmentIdOf(c)));
    })
    .delete('/attachments/:id', async (c) => {
      await deleteAttachment(db, files, c.var.principal, attachmentIdOf(c));
      return c.body(null, 204);
    });
};
