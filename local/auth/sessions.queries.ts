import type { Db } from '../db.ts';

export type AuthenticatorAssuranceLevel = 'aal1' | 'aal2';

/** How a session was authenticated, as GoTrue records it in auth.mfa_amr_claims and the `amr` claim. */
export type AuthenticationMethod =
  'password' | 'otp' | 'recovery' | 'invite' | 'magiclink' | 'email/signup' | 'email_change' | 'totp';

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  aal: AuthenticatorAssuranceLevel;
}

export interface AmrClaim {
  method: AuthenticationMethod;
  /** Unix seconds. */
  timestamp: number;
}

export interface RefreshTokenRow {
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date;
  parent: string | null;
  session_id: string | null;
}

export async function insertSession(db: Db, id: string, userId: string): Promise<SessionRow> {
  const result = await db.query<SessionRow>(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal)
     values ($1, $2, now(), now(), 'aal1') returning id, user_id, created_at, aal`,
    [id, userId],
  );
  const [session] = result.rows;
  if (!session) throw new Error('inserting a session returned no row');
  return session;
}

export async function findSession(db: Db, id: string): Promise<SessionRow | null> {
  const result = await db.query<SessionRow>(
    'select id, user_id, created_at, aal from auth.sessions where id = $1',
    [id],
  );
  return result.rows[0] ?? null;
}

/** Records (or renews) one way the session was authenticated. */
export async function recordAmrClaim(db: Db, sessionId: string, method: AuthenticationMethod): Promise<void> {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), $2)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId, method],
  );
}

/** The session's `amr` claim: the most recent method first, as GoTrue sorts it. */
export async function findAmrClaims(db: Db, sessionId: string): Promise<AmrClaim[]> {
  const result = await db.query<{ method: AuthenticationMethod; timestamp: number }>(
    `select authentication_method as method, extract(epoch from updated_at)::int as timestamp
     from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  return result.rows;
}

export async function insertRefreshToken(
  db: Db,
  token: { token: string; userId: string; sessionId: string; parent: string | null },
): Promise<void> {
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token.token, token.userId, token.parent, token.sessionId],
  );
}

/** Locks the token's row, so that two refreshes with one token are served one after the other. */
export async function lockRefreshToken(db: Db, token: string): Promise<RefreshTokenRow | null> {
  const result = await db.query<RefreshTokenRow>(
    `select token, user_id, revoked, updated_at, parent, session_id
     from auth.refresh_tokens where token = $1 for update`,
    [token],
  );
  return result.rows[0] ?? null;
}

export async function findActiveRefreshToken(db: Db, sessionId: string): Promise<RefreshTokenRow | null> {
  const result = await db.query<RefreshTokenRow>(
    `select token, user_id, revoked, updated_at, parent, session_id
     from auth.refresh_tokens where session_id = $1 and revoked = false
     order by id desc limit 1`,
    [sessionId],
  );
  return result.rows[0] ?? null;
}

export async function revokeRefreshToken(db: Db, token: string): Promise<void> {
  await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [
    token,
  ]);
}

export async function revokeSessionTokens(db: Db, sessionId: string): Promise<void> {
  await db.query(
    'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
    [sessionId],
  );
}

export async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [
    sessionId,
  ]);
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.query('delete from auth.sessions where id = $1', [sessionId]);
}

export async function deleteUserSessions(
  db: Db,
  userId: string,
  exceptSessionId: string | null,
): Promise<void> {
  await db.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
    userId,
    exceptSessionId,
  ]);
}
