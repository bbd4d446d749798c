import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context.ts';
import { requireSession, type CurrentSession } from './current-session.ts';
import type { Endpoint } from './endpoint.ts';
import { AuthError } from './errors.ts';
import { findOwnedFactor, type FactorRow } from './factors.queries.ts';
import type { Reply } from './reply.ts';
import { isUuid } from './uuids.ts';

/** The caller and one of its own factors, as an endpoint on `/factors/{id}` receives them. */
export interface OwnedFactor {
  current: CurrentSession;
  factor: FactorRow;
}

/** An endpoint on `/factors/{id}`: for the factor's owner only. */
export function ownedFactorEndpoint(
  handle: (context: AuthContext, req: IncomingMessage, owned: OwnedFactor) => Promise<Reply>,
): Endpoint {
  return async (context, req, _url, params) => {
    const current = await requireFactorOwner(context, req);
    const factor = await requireOwnedFactor(context, current, params.id);
    return handle(context, req, { current, factor });
  };
}

/** As GoTrue's requireAuthentication + requireNotAnonymous in front of /factors. */
export async function requireFactorOwner(
  context: AuthContext,
  req: IncomingMessage,
): Promise<CurrentSession> {
  const current = await requireSession(context, req);
  if (current.user.is_anonymous) {
    throw new AuthError(403, 'no_authorization', 'Anonymous user not allowed to perform these actions');
  }
  return current;
}

/** As GoTrue's loadFactor: someone else's factor is as unknown as a missing one. */
async function requireOwnedFactor(
  context: AuthContext,
  { user }: CurrentSession,
  factorId: string | undefined,
): Promise<FactorRow> {
  if (!isUuid(factorId)) {
    throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
  }
  const factor = await findOwnedFactor(context.database.statements, user.id, factorId);
  if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}
