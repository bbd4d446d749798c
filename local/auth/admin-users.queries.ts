import type { Db } from '../db.ts';
import type { UserRow } from './users.queries.ts';

/** GoTrue scopes admin listings to its (single) instance and the `authenticated` audience. */
const AUDIENCE_FILTER = `instance_id = '00000000-0000-0000-0000-000000000000' and aud = 'authenticated'`;

/** GoTrue's obfuscateValue in SQL: base64url (unpadded) of SHA-256(user id || value). */
function obfuscated(userId: string, value: string): string {
  return `translate(rtrim(encode(extensions.digest(${userId}::text || coalesce(${value}, ''), 'sha256'), 'base64'), '='), '+/', '-_')`;
}

export async function countUsers(db: Db): Promise<number> {
  const result = await db.query<{ total: number }>(
    `select count(*)::int as total from auth.users where ${AUDIENCE_FILTER}`,
  );
  return result.rows[0]?.total ?? 0;
}

/** One page of users, newest first, soft-deleted ones included (as GoTrue lists them). */
export async function findUsersPage(db: Db, limit: number, offset: number): Promise<UserRow[]> {
  const result = await db.query<UserRow>(
    `select * from auth.users where ${AUDIENCE_FILTER} order by created_at desc, id limit $1 offset $2`,
    [limit, offset],
  );
  return result.rows;
}

/** Unlike findUserById, soft-deleted users are found too: GoTrue's admin API still shows them. */
export async function findAnyUserById(db: Db, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>('select * from auth.users where id = $1', [id]);
  return result.rows[0] ?? null;
}

/** Another user holding `email`, if any (soft-deleted users hold an obfuscated one). */
export async function findOtherUserWithEmail(
  db: Db,
  email: string,
  exceptId: string | null,
): Promise<boolean> {
  const result = await db.query(
    'select 1 from auth.users where lower(email) = lower($1) and is_sso_user = false and id is distinct from $2',
    [email, exceptId],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function setUserRole(db: Db, userId: string, role: string): Promise<void> {
  await db.query('update auth.users set role = $2, updated_at = now() where id = $1', [userId, role.trim()]);
}

/** GoTrue's User.Confirm (its `email_verified` user_metadata flag is set by the caller). */
export async function confirmEmail(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users set email_confirmed_at = now(), confirmation_token = '', updated_at = now()
     where id = $1`,
    [userId],
  );
}

export async function setBannedUntil(db: Db, userId: string, bannedUntil: Date | null): Promise<void> {
  await db.query('update auth.users set banned_until = $2, updated_at = now() where id = $1', [
    userId,
    bannedUntil,
  ]);
}

export async function setEmail(db: Db, userId: string, email: string): Promise<void> {
  await db.query('update auth.users set email = $2, updated_at = now() where id = $1', [userId, email]);
}

/** Points the user's e-mail identity at a new address; false when the user has no e-mail identity. */
export async function updateEmailIdentity(
  db: Db,
  userId: string,
  email: string,
  emailVerified: boolean,
): Promise<boolean> {
  const result = await db.query(
    `update auth.identities
     set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', $3::boolean),
         updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId, email, emailVerified],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function insertEmailIdentity(
  db: Db,
  userId: string,
  email: string,
  emailVerified: boolean,
): Promise<void> {
  const identityData = { sub: userId, email, email_verified: emailVerified, phone_verified: false };
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $1, $2, 'email', now(), now(), now())`,
    [userId, identityData],
  );
}

/** GoTrue's SoftDeleteUser: addresses obfuscated, password and pending tokens cleared, `deleted_at` set. */
export async function softDeleteUser(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users
     set email = ${obfuscated('id', 'email')},
         phone = left(${obfuscated('id', 'phone')}, 15),
         email_change = ${obfuscated('id', 'email_change')},
         phone_change = left(${obfuscated('id', 'phone_change')}, 15),
         encrypted_password = null, confirmation_token = '', recovery_token = '',
         email_change_token_current = '', email_change_token_new = '', phone_change_token = '',
         deleted_at = now(), updated_at = now()
     where id = $1`,
    [userId],
  );
}

/** GoTrue's SoftDeleteUserIdentities: identity data emptied, provider ids obfuscated. */
export async function softDeleteIdentities(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.identities
     set identity_data = '{}'::jsonb,
         provider_id = ${obfuscated('user_id', `provider || ':' || provider_id`)},
         updated_at = now()
     where user_id = $1`,
    [userId],
  );
}

export async function deleteUserFactors(db: Db, userId: string): Promise<void> {
  await db.query('delete from auth.mfa_factors where user_id = $1', [userId]);
}

/** A hard delete: identities, sessions (and their refresh tokens), factors and tokens go with the user. */
export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.query('delete from auth.users where id = $1', [userId]);
}
