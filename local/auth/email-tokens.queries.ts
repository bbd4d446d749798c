import type { Db } from '../db.ts';
import type { UserRow } from './users.queries.ts';

/** Which pending e-mail token: GoTrue keeps each in an auth.users column and in auth.one_time_tokens. */
export type EmailTokenKind =
  'confirmation' | 'recovery' | 'reauthentication' | 'email_change_current' | 'email_change_new';

const COLUMNS = {
  confirmation: { token: 'confirmation_token', sentAt: 'confirmation_sent_at', type: 'confirmation_token' },
  recovery: { token: 'recovery_token', sentAt: 'recovery_sent_at', type: 'recovery_token' },
  reauthentication: {
    token: 'reauthentication_token',
    sentAt: 'reauthentication_sent_at',
    type: 'reauthentication_token',
  },
  email_change_current: {
    token: 'email_change_token_current',
    sentAt: 'email_change_sent_at',
    type: 'email_change_token_current',
  },
  email_change_new: {
    token: 'email_change_token_new',
    sentAt: 'email_change_sent_at',
    type: 'email_change_token_new',
  },
} as const;

/**
 * Replaces the user's pending token of this kind and stamps when it was sent; `user.email` is the address
 * the token was sent to (the new one for `email_change_new`).
 */
export async function storeEmailToken(
  db: Db,
  kind: EmailTokenKind,
  user: { id: string; email: string },
  tokenHash: string,
): Promise<void> {
  const { token, sentAt, type } = COLUMNS[kind];
  await db.query(`update auth.users set ${token} = $2, ${sentAt} = now() where id = $1`, [
    user.id,
    tokenHash,
  ]);
  await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [user.id, type]);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values (gen_random_uuid(), $1, $2, $3, lower($4))`,
    [user.id, type, tokenHash, user.email],
  );
}

/** The user a link's token hash belongs to, locked for the verification that follows. */
export async function lockUserByTokenHash(
  db: Db,
  kind: EmailTokenKind,
  tokenHash: string,
): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    `select u.* from auth.users u
     join auth.one_time_tokens t on t.user_id = u.id
     where t.token_type = $1 and t.token_hash = $2 and u.deleted_at is null
     for update of u`,
    [COLUMNS[kind].type, tokenHash],
  );
  return result.rows[0] ?? null;
}

/** The user with this e-mail, locked: e-mail sends and verifications of one user go one at a time. */
export async function lockUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    `select * from auth.users
     where lower(email) = lower($1) and is_sso_user = false and deleted_at is null for update`,
    [email],
  );
  return result.rows[0] ?? null;
}

export async function lockUserById(db: Db, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    'select * from auth.users where id = $1 and deleted_at is null for update',
    [id],
  );
  return result.rows[0] ?? null;
}

/** A recovery or magic link was used: the token is spent, with every other one-time token of the user. */
export async function spendRecoveryToken(db: Db, userId: string): Promise<void> {
  await db.query(`update auth.users set recovery_token = '', updated_at = now() where id = $1`, [userId]);
  await db.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
}

/** The address is confirmed: on the user, on its e-mail identity, and its one-time tokens are spent. */
export async function confirmEmail(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users set confirmation_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()),
       updated_at = now()
     where id = $1`,
    [userId],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb,
       updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId],
  );
  await db.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
}

/** A token is spent: gone from its column and from auth.one_time_tokens. */
export async function spendEmailToken(db: Db, userId: string, kind: EmailTokenKind): Promise<void> {
  const { token, type } = COLUMNS[kind];
  await db.query(`update auth.users set ${token} = '', updated_at = now() where id = $1`, [userId]);
  await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [userId, type]);
}
