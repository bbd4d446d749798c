import type { Db } from '../db.ts';
import type { AuthenticationMethod } from './sessions.queries.ts';

export type FactorType = 'totp' | 'phone' | 'webauthn';
export type FactorStatus = 'unverified' | 'verified';

export interface FactorRow {
  id: string;
  user_id: string;
  /** GoTrue stores an empty string when the client gave no name. */
  friendly_name: string | null;
  factor_type: FactorType;
  status: FactorStatus;
  created_at: Date;
  updated_at: Date;
  secret: string | null;
  phone: string | null;
  last_challenged_at: Date | null;
}

export interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: Date;
  verified_at: Date | null;
  /** The caller's address in Postgres' canonical text form (`host(inet)`). */
  ip_address: string;
}

export interface NewTotpFactor {
  id: string;
  userId: string;
  friendlyName: string;
  secret: string;
}

const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret, phone,
  last_challenged_at`;
const CHALLENGE_COLUMNS = 'id, factor_id, created_at, verified_at, host(ip_address) as ip_address';

/** As GoTrue at every enrolment: unverified factors past their lifetime, never challenged, are dropped. */
export async function deleteExpiredUnverifiedFactors(db: Db, lifetimeSeconds: number): Promise<void> {
  await db.query(
    `delete from auth.mfa_factors f
     where f.status <> 'verified'
       and not exists (select from auth.mfa_challenges c where c.factor_id = f.id)
       and f.created_at + make_interval(secs => $1) < now()`,
    [lifetimeSeconds],
  );
}

export async function findFactors(db: Db, userId: string): Promise<FactorRow[]> {
  const result = await db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at, id`,
    [userId],
  );
  return result.rows;
}

export async function findOwnedFactor(db: Db, userId: string, factorId: string): Promise<FactorRow | null> {
  const result = await db.query<FactorRow>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2`,
    [factorId, userId],
  );
  return result.rows[0] ?? null;
}

export async function insertTotpFactor(db: Db, factor: NewTotpFactor): Promise<void> {
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
    [factor.id, factor.userId, factor.friendlyName, factor.secret],
  );
}

export async function markFactorVerified(db: Db, factorId: string): Promise<void> {
  await db.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [
    factorId,
  ]);
}

/** Deleting a factor cascades to its challenges. */
export async function deleteFactor(db: Db, factorId: string): Promise<void> {
  await db.query('delete from auth.mfa_factors where id = $1', [factorId]);
}

export async function deleteUnverifiedFactors(db: Db, userId: string, factorType: FactorType): Promise<void> {
  await db.query(
    `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2`,
    [userId, factorType],
  );
}

/** A new challenge, recording the caller's address. */
export async function insertChallenge(
  db: Db,
  challenge: { id: string; factorId: string; ipAddress: string },
): Promise<ChallengeRow> {
  const result = await db.query<ChallengeRow>(
    `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
     values ($1, $2, now(), $3::inet) returning ${CHALLENGE_COLUMNS}`,
    [challenge.id, challenge.factorId, challenge.ipAddress],
  );
  const [row] = result.rows;
  if (!row) throw new Error('inserting a challenge returned no row');
  return row;
}

export async function recordFactorChallenged(db: Db, factorId: string): Promise<void> {
  await db.query('update auth.mfa_factors set last_challenged_at = now() where id = $1', [factorId]);
}

/** Locks the challenge's row, so that two verifications of one challenge are served one after the other. */
export async function lockChallenge(
  db: Db,
  factorId: string,
  challengeId: string,
): Promise<ChallengeRow | null> {
  const result = await db.query<ChallengeRow>(
    `select ${CHALLENGE_COLUMNS} from auth.mfa_challenges where id = $1 and factor_id = $2 for update`,
    [challengeId, factorId],
  );
  return result.rows[0] ?? null;
}

export async function markChallengeVerified(db: Db, challengeId: string): Promise<void> {
  await db.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challengeId]);
}

export async function deleteChallenge(db: Db, challengeId: string): Promise<void> {
  await db.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
}

/** Raises a session to aal2 and remembers the factor that did it (auth.sessions.factor_id). */
export async function raiseSessionToAal2(db: Db, sessionId: string, factorId: string): Promise<void> {
  await db.query(`update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`, [
    sessionId,
    factorId,
  ]);
}

/** GoTrue's InvalidateSessionsWithAALLessThan(aal2): the user's other sessions that did not pass MFA end. */
export async function deleteSessionsBelowAal2(db: Db, userId: string): Promise<void> {
  await db.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'::auth.aal_level`, [userId]);
}

/** The amr claim of a removed factor, in the sessions that factor had raised to aal2. */
export async function deleteFactorAmrClaims(
  db: Db,
  factorId: string,
  method: AuthenticationMethod,
): Promise<void> {
  await db.query(
    `delete from auth.mfa_amr_claims
     where authentication_method = $2 and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factorId, method],
  );
}

/** Sessions a removed factor had raised fall back to aal1. */
export async function lowerFactorSessionsToAal1(db: Db, factorId: string): Promise<void> {
  await db.query(
    `update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1`,
    [factorId],
  );
}
