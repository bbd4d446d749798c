import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db.ts';
import { clientAddress } from './client-address.ts';
import type { AuthContext } from './context.ts';
import type { CurrentSession } from './current-session.ts';
import { AuthError, validationFailed } from './errors.ts';
import { ownedFactorEndpoint } from './factor-owner.ts';
import {
  deleteChallenge,
  deleteSessionsBelowAal2,
  deleteUnverifiedFactors,
  insertChallenge,
  lockChallenge,
  markChallengeVerified,
  markFactorVerified,
  raiseSessionToAal2,
  recordFactorChallenged,
  type ChallengeRow,
  type FactorRow,
} from './factors.queries.ts';
import { swapRefreshToken } from './refresh.ts';
import { ok } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { findSession, recordAmrClaim } from './sessions.queries.ts';
import { sessionBody, type SessionBody } from './sessions.ts';
import { totpCodeIsValid } from './totp.ts';
import { isUuid } from './uuids.ts';

/** GoTrue's `[auth.mfa] challenge_expiry_duration`. */
const CHALLENGE_LIFETIME_SECONDS = 300;

const VerifyBody = z.object({ challenge_id: z.string().optional(), code: z.string().optional() });

/** POST /factors/{id}/challenge: the body (auth-js sends `{factorId}`) means nothing for TOTP. */
export const challengeFactor = ownedFactorEndpoint(async (context, req, { factor }) => {
  const challenge = await context.database.transaction(async (db) => {
    const created = await insertChallenge(db, {
      id: randomUUID(),
      factorId: factor.id,
      ipAddress: clientAddress(req),
    });
    await recordFactorChallenged(db, factor.id);
    return created;
  });
  return ok({ id: challenge.id, type: factor.factor_type, expires_at: expiresAt(challenge) });
});

/**
 * POST /factors/{id}/verify `{challenge_id, code}`: a valid code verifies the factor, raises this session
 * to aal2 with a `totp` amr claim and a new refresh token, and ends the user's other aal1 sessions.
 */
export const verifyFactor = ownedFactorEndpoint(async (context, req, { current, factor }) => {
  const body = await readJsonBody(req, VerifyBody);
  if (!body.code) throw validationFailed('Code needs to be non-empty');
  const attempt: Attempt = {
    current,
    factor,
    challengeId: body.challenge_id ?? '',
    code: body.code,
    address: clientAddress(req),
  };
  // An expired challenge is deleted and refused: returned rather than thrown, so the deletion commits.
  const outcome = await context.database.transaction((db) => verifyInTransaction(context, db, attempt));
  if (outcome instanceof AuthError) throw outcome;
  return ok(outcome);
});

interface Attempt {
  current: CurrentSession;
  factor: FactorRow;
  challengeId: string;
  code: string;
  address: string;
}

async function verifyInTransaction(
  context: AuthContext,
  db: Db,
  { current, factor, challengeId, code, address }: Attempt,
): Promise<SessionBody | AuthError> {
  const challenge = isUuid(challengeId) ? await lockChallenge(db, factor.id, challengeId) : null;
  if (!challenge) {
    throw new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  }
  // As GoTrue, a challenge already used is refused with the same code as one from another address.
  if (challenge.verified_at !== null || challenge.ip_address !== address) {
    throw new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  if (Date.now() > challenge.created_at.getTime() + CHALLENGE_LIFETIME_SECONDS * 1000) {
    await deleteChallenge(db, challenge.id);
    return new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  if (!factor.secret || !totpCodeIsValid(factor.secret, code)) {
    throw new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
  }
  await markChallengeVerified(db, challenge.id);
  if (factor.status !== 'verified') await markFactorVerified(db, factor.id);
  return raiseSession(context, db, current, factor);
}

async function raiseSession(
  context: AuthContext,
  db: Db,
  { user, session }: CurrentSession,
  factor: FactorRow,
): Promise<SessionBody> {
  await recordAmrClaim(db, session.id, 'totp');
  const refreshToken = await swapRefreshToken(db, session);
  await raiseSessionToAal2(db, session.id, factor.id);
  await deleteSessionsBelowAal2(db, user.id);
  await deleteUnverifiedFactors(db, user.id, factor.factor_type);
  const raised = await findSession(db, session.id);
  if (!raised) throw new Error('the verified session vanished');
  return sessionBody(context, db, raised, refreshToken);
}

/** Unix seconds. */
function expiresAt(challenge: ChallengeRow): number {
  return Math.floor(challenge.created_at.getTime() / 1000) + CHALLENGE_LIFETIME_SECONDS;
}
