import type { IncomingMessage } from 'node:http';
import type { Db } from '../db.ts';
import type { RouteParams } from '../gateway/route-table.ts';
import { findAnyUserById } from './admin-users.queries.ts';
import type { AuthContext } from './context.ts';
import type { Endpoint } from './endpoint.ts';
import { AuthError } from './errors.ts';
import type { Reply } from './reply.ts';
import { requireAdmin } from './require-admin.ts';
import type { UserRow } from './users.queries.ts';
import { isUuid } from './uuids.ts';

/** An endpoint on `/admin/users/{id}`: for admins only, about a user that exists (soft-deleted or not). */
export function adminUserEndpoint(
  handle: (context: AuthContext, req: IncomingMessage, user: UserRow, params: RouteParams) => Promise<Reply>,
): Endpoint {
  return async (context, req, _url, params) => {
    await requireAdmin(context, req);
    return handle(context, req, await requireTargetUser(context.database.statements, params.id), params);
  };
}

/** As GoTrue's loadUser for /admin/users/{id}. */
async function requireTargetUser(db: Db, id: string | undefined): Promise<UserRow> {
  if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findAnyUserById(db, id);
  if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
  return user;
}
