import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuthContext } from './context.ts';
import { AuthError } from './errors.ts';
import { ownedFactorEndpoint, requireFactorOwner } from './factor-owner.ts';
import {
  deleteExpiredUnverifiedFactors,
  deleteFactor,
  deleteFactorAmrClaims,
  findFactors,
  insertTotpFactor,
  lowerFactorSessionsToAal1,
  type FactorRow,
} from './factors.queries.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import type { SessionRow } from './sessions.queries.ts';
import { newTotpSecret, totpQrCodeSvg, totpUri } from './totp.ts';

/** GoTrue's `[auth.mfa]` figures: `max_enrolled_factors` (and its verified-factor cap), the factor expiry. */
const MAX_ENROLLED_FACTORS = 10;
const MAX_VERIFIED_FACTORS = 10;
const UNVERIFIED_FACTOR_LIFETIME_SECONDS = 300;

const EnrollBody = z.object({
  factor_type: z.string().optional(),
  friendly_name: z.string().optional(),
  issuer: z.string().optional(),
});

/**
 * POST /factors: a new, unverified TOTP factor with its secret, key URI and QR code
 * (docs/supabase-protocols.md#totp-factors).
 */
export async function enrollFactor(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  const current = await requireFactorOwner(context, req);
  const body = await readJsonBody(req, EnrollBody);
  assertTotpEnrolment(body.factor_type);
  const friendlyName = body.friendly_name ?? '';
  // As GoTrue: the site URL's host, port included (`localhost:5173` under the CLI-style config).
  const issuer = body.issuer || new URL(context.redirects.siteUrl).host;
  const secret = newTotpSecret();
  const uri = totpUri(issuer, current.user.email ?? '', secret);
  const qrCode = await totpQrCodeSvg(uri);
  const id = randomUUID();
  await context.database.transaction(async (db) => {
    await deleteExpiredUnverifiedFactors(db, UNVERIFIED_FACTOR_LIFETIME_SECONDS);
    assertMayEnroll(await findFactors(db, current.user.id), friendlyName, current.session);
    await insertTotpFactor(db, { id, userId: current.user.id, friendlyName, secret });
  });
  return ok({ id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qrCode, secret, uri } });
}

/** DELETE /factors/{id}: a verified factor can only be removed from an aal2 session. */
export const unenrollFactor = ownedFactorEndpoint(async (context, _req, { current, factor }) => {
  if (factor.status === 'verified' && current.session.aal !== 'aal2') {
    throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await context.database.transaction(async (db) => {
    await deleteFactor(db, factor.id);
    await deleteFactorAmrClaims(db, factor.id, 'totp');
    await lowerFactorSessionsToAal1(db, factor.id);
  });
  return ok({ id: factor.id });
});

function assertTotpEnrolment(factorType: string | undefined): void {
  if (factorType === 'totp') return;
  if (factorType === 'phone') {
    throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  }
  if (factorType === 'webauthn') {
    throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
  }
  throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone, or webauthn');
}

/** GoTrue's validateFactors; an unnamed factor has the name "", so two unnamed ones conflict too. */
function assertMayEnroll(factors: FactorRow[], friendlyName: string, session: SessionRow): void {
  if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName)) {
    throw new AuthError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    );
  }
  const verified = factors.filter((factor) => factor.status === 'verified').length;
  if (factors.length >= MAX_ENROLLED_FACTORS || verified >= MAX_VERIFIED_FACTORS) {
    throw new AuthError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  if (verified > 0 && session.aal !== 'aal2') {
    throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }
}
