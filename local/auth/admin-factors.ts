import { adminUserEndpoint } from './admin-user-endpoint.ts';
import { AuthError } from './errors.ts';
import {
  deleteFactor,
  deleteFactorAmrClaims,
  findFactors,
  findOwnedFactor,
  lowerFactorSessionsToAal1,
} from './factors.queries.ts';
import { ok } from './reply.ts';
import { factorJson } from './user-json.ts';
import { isUuid } from './uuids.ts';

/** GET /admin/users/{id}/factors (`auth.admin.mfa.listFactors`): the user's factors, verified or not. */
export const listUserFactors = adminUserEndpoint(async (context, _req, user) =>
  ok((await findFactors(context.database.statements, user.id)).map(factorJson)),
);

/**
 * DELETE /admin/users/{id}/factors/{factorId} (`auth.admin.mfa.deleteFactor`): answers the factor removed;
 * the sessions it had raised fall back to aal1, as after the user's own unenroll (the stand-in
 * enrols TOTP factors only).
 */
export const deleteUserFactor = adminUserEndpoint(async (context, _req, user, params) => {
  const factorId = params.factorId;
  if (!isUuid(factorId)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
  const factor = await findOwnedFactor(context.database.statements, user.id, factorId);
  if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  await context.database.transaction(async (db) => {
    await deleteFactor(db, factor.id);
    await deleteFactorAmrClaims(db, factor.id, 'totp');
    await lowerFactorSessionsToAal1(db, factor.id);
  });
  return ok(factorJson(factor));
});
