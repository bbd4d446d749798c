import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import {
  countUsers,
  deleteUser,
  deleteUserFactors,
  findAnyUserById,
  findUsersPage,
  softDeleteIdentities,
  softDeleteUser,
} from './admin-users.queries.ts';
import { inTransaction, type AuthContext } from './context.ts';
import { AuthError } from './errors.ts';
import { pageOffset, pageParams, paginationHeaders } from './pagination.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { requireAdmin } from './require-admin.ts';
import type { RouteParams } from './route-table.ts';
import { deleteUserSessions } from './sessions.queries.ts';
import { loadUserJson } from './user-json.ts';
import type { Db, UserRow } from './users.queries.ts';
import { isUuid } from './uuids.ts';

const DeleteUserBody = z.object({ should_soft_delete: z.boolean().optional() });

/** GET /admin/users?page=&per_page=: newest first, with GoTrue's `X-Total-Count` and `Link` headers. */
export async function listUsers(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  await requireAdmin(context, req);
  const page = pageParams(url);
  const total = await countUsers(context.pool);
  const rows = await findUsersPage(context.pool, page.perPage, pageOffset(page));
  const users: Record<string, unknown>[] = [];
  for (const row of rows) users.push(await loadUserJson(context.pool, row));
  return ok({ users, aud: 'authenticated' }, paginationHeaders(url, page, total));
}

/** GET /admin/users/{id} */
export async function getUserById(
  context: AuthContext,
  req: IncomingMessage,
  _url: URL,
  params: RouteParams,
): Promise<Reply> {
  await requireAdmin(context, req);
  const user = await requireTargetUser(context.pool, params.id);
  return ok(await loadUserJson(context.pool, user));
}

/**
 * DELETE /admin/users/{id} `{should_soft_delete?}` → `{}`. A hard delete takes identities, sessions and
 * factors with the user; a soft delete keeps the row with obfuscated addresses, as GoTrue does.
 */
export async function deleteUserById(
  context: AuthContext,
  req: IncomingMessage,
  _url: URL,
  params: RouteParams,
): Promise<Reply> {
  await requireAdmin(context, req);
  const user = await requireTargetUser(context.pool, params.id);
  const body = await readJsonBody(req, DeleteUserBody);
  await inTransaction(context.pool, async (db) => {
    if (!body.should_soft_delete) return deleteUser(db, user.id);
    if (user.deleted_at) return;
    await softDeleteUser(db, user.id);
    await softDeleteIdentities(db, user.id);
    await deleteUserFactors(db, user.id);
    await deleteUserSessions(db, user.id, null);
  });
  return ok({});
}

/** As GoTrue's loadUser for /admin/users/{id}. */
export async function requireTargetUser(db: Db, id: string | undefined): Promise<UserRow> {
  if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findAnyUserById(db, id);
  if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
  return user;
}
