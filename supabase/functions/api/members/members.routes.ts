/** /v1/workspaces/{slug}/members[/{user_id}]: the people in a workspace and their roles. */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { UpdateMemberBodySchema } from './members.schemas.ts';
import { getMember, listMembers, memberNotFound, removeMember, updateMember } from './members.service.ts';

const ListMembersQuery = z.object(pageParameters(CreatedAtIdKey));

/** The `{user_id}` of the address; anything but a UUID names no member. */
function userIdOf(c: Context<AuthenticatedEnv>): string {
  return shapedPathParam(c, 'user_id', UuidShape, memberNotFound);
}

export const membersRoutes = ({ db, storage, logger }: Pick<AppDeps, 'db' | 'storage' | 'logger'>) => {
  const files = { storage, logger };
  return new Hono<AuthenticatedEnv>()
    .get('/workspaces/:slug/members', queryOf(ListMembersQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      const page = await listMembers(db, files, c.var.principal, c.req.param('slug'), { limit, cursor });
      return listResponse(c, page);
    })
    .get('/workspaces/:slug/members/:user_id', async (c) => {
      return jsonWithETag(c, await getMember(db, files, c.var.principal, c.req.param('slug'), userIdOf(c)));
    })
    .patch('/workspaces/:slug/members/:user_id', async (c) => {
      const changes = await readMergePatch(c, UpdateMemberBodySchema);
      const expected = readIfMatch(c);
      const member = await updateMember(
        db,
        files,
        c.var.principal,
        c.req.param('slug'),
        userIdOf(c),
        changes,
        expected,
      );
      return jsonWithETag(c, member);
    })
    .delete('/workspaces/:slug/members/:user_id', async (c) => {
      await removeMember(db, c.var.principal, c.req.param('slug'), userIdOf(c), readIfMatch(c));
      return c.body(null, 204);
    });
};
