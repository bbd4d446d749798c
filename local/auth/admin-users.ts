import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { adminUserEndpoint } from './admin-user-endpoint.ts';
import {
  countUsers,
  deleteUser,
  deleteUserFactors,
  findUsersPage,
  softDeleteIdentities,
  softDeleteUser,
} from './admin-users.queries.ts';
import type { AuthContext } from './context.ts';
import { pageOffset, pageParams, paginationHeaders } from './pagination.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { requireAdmin } from './require-admin.ts';
import { deleteUserSessions } from './sessions.queries.ts';
import { loadUserJson } from './user-json.ts';

const DeleteUserBody = z.object({ should_soft_delete: z.boolean().optional() });

/** GET /admin/users?page=&per_page=: newest first, with GoTrue's `X-Total-Count` and `Link` headers. */
export async function listUsers(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  await requireAdmin(context, req);
  const page = pageParams(url);
  const total = await countUsers(context.database.statements);
  const rows = await findUsersPage(context.database.statements, page.perPage, pageOffset(page));
  const users: Record<string, unknown>[] = [];
  for (const row of rows) users.push(await loadUserJson(context.database.statements, row));
  return ok({ users, aud: 'authenticated' }, paginationHeaders(url, page, total));
}

/** GET /admin/users/{id} */
export const getUserById = adminUserEndpoint(async (context, _req, user) =>
  ok(await loadUserJson(context.database.statements, user)),
);

/**
 * DELETE /admin/users/{id} `{should_soft_delete?}` → `{}`. A hard delete takes identities, sessions and
 * factors with the user; a soft delete keeps the row with obfuscated addresses, as GoTrue does.
 */
export const deleteUserById = adminUserEndpoint(async (context, req, user) => {
  const body = await readJsonBody(req, DeleteUserBody);
  await context.database.transaction(async (db) => {
    if (!body.should_soft_delete) return deleteUser(db, user.id);
    if (user.deleted_at) return;
    await softDeleteUser(db, user.id);
    await softDeleteIdentities(db, user.id);
    await deleteUserFactors(db, user.id);
    await deleteUserSessions(db, user.id, null);
  });
  return ok({});
});
