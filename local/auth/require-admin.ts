import type { IncomingMessage } from 'node:http';
import type { AuthContext } from './context.ts';
import { bearerToken } from './current-session.ts';
import { AuthError } from './errors.ts';

/** The roles GoTrue's `GOTRUE_JWT_ADMIN_ROLES` holds under the Supabase CLI. */
const ADMIN_ROLES = new Set(['service_role']);

/**
 * Admits only a request whose bearer JWT carries an admin role: the service_role key (or `sb_secret_…`,
 * which the apikey rule has already turned into it). The anon key and user tokens are `not_admin`.
 */
export async function requireAdmin(context: AuthContext, req: IncomingMessage): Promise<void> {
  const claims = await context.tokens.verifyAccessToken(bearerToken(req));
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
    throw new AuthError(403, 'not_admin', 'User not allowed');
  }
}
