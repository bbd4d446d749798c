import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context.ts';
import { requireSession } from './current-session.ts';
import { validationFailed } from './errors.ts';
import { noContent, type Reply } from './reply.ts';
import { deleteSession, deleteUserSessions } from './sessions.queries.ts';

/** POST /logout?scope=global|local|others; deleting a session cascades to its refresh tokens. */
export async function logout(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const scope = url.searchParams.get('scope') ?? 'global';
  if (!['global', 'local', 'others'].includes(scope))
    throw validationFailed(`Unsupported logout scope "${scope}"`);
  const { user, session } = await requireSession(context, req);
  if (scope === 'local') await deleteSession(context.database.statements, session.id);
  if (scope === 'others') await deleteUserSessions(context.database.statements, user.id, session.id);
  if (scope === 'global') await deleteUserSessions(context.database.statements, user.id, null);
  return noContent();
}
