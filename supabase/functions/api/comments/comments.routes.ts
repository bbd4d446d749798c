/** /v1/tasks/{id}/comments and /v1/comments/{id} — the discussion on a task. */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { taskIdOf } from '../tasks/task-access.ts';
import { CreateCommentBodySchema, UpdateCommentBodySchema } from './comments.schemas.ts';
import { commentNotFound } from './comment-errors.ts';
import { createComment, deleteComment, getComment, listComments, updateComment } from './comments.service.ts';

const ListCommentsQuery = z.object(pageParameters(CreatedAtIdKey));

/** The `{id}` of /v1/comments/{id}; anything but a UUID names no comment. */
const commentIdOf = (c: Context<AuthenticatedEnv>): string =>
  shapedPathParam(c, 'id', UuidShape, commentNotFound);

export const commentsRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/tasks/:id/comments', async (c) => {
      const taskId = taskIdOf(c);
      const request = await readJsonBody(c, CreateCommentBodySchema);
      const comment = await createComment(db, c.var.principal, taskId, request);
      // Relative to the request's own URL (…/v1/tasks/{id}/comments), so it holds behind any gateway prefix.
      c.header('Location', `../../comments/${comment.id}`);
      return jsonWithETag(c, comment, 201);
    })
    .get('/tasks/:id/comments', queryOf(ListCommentsQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listComments(db, c.var.principal, taskIdOf(c), { limit, cursor }));
    })
    .get('/comments/:id', async (c) => {
      return jsonWithETag(c, await getComment(db, c.var.principal, commentIdOf(c)));
    })
    .patch('/comments/:id', async (c) => {
      const id = commentIdOf(c);
      const changes = await readMergePatch(c, UpdateCommentBodySchema);
      return jsonWithETag(c, await updateComment(db, c.var.principal, id, changes, readIfMatch(c)));
    })
    .delete('/comments/:id', async (c) => {
      await deleteComment(db, c.var.principal, commentIdOf(c), readIfMatch(c));
      return c.body(null, 204);
    });
