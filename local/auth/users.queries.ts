import type { Db } from '../db.ts';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  /** The pending e-mail tokens' hashes (empty when none); never part of the User object. */
  confirmation_token: string | null;
  recovery_token: string | null;
  reauthentication_token: string | null;
  email_change_token_current: string | null;
  email_change_token_new: string | null;
  /** The address an e-mail change is to, until it is confirmed (GoTrue's `new_email`). */
  email_change: string | null;
  /** 1 once one of the two addresses of a secure e-mail change has confirmed. */
  email_change_confirm_status: number | null;
  email_confirmed_at: Date | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change_sent_at: Date | null;
  reauthentication_sent_at: Date | null;
  invited_at: Date | null;
  last_sign_in_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  is_anonymous: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
  email: string | null;
}

export interface NewUser {
  id: string;
  email: string;
  encryptedPassword: string;
  userMetadata: Record<string, unknown>;
  /** False while e-mail confirmations are on and the address is not yet confirmed. */
  emailConfirmed: boolean;
}

const EMAIL_APP_METADATA = { provider: 'email', providers: ['email'] };

/** An e-mail user with its e-mail identity, as GoTrue's signup makes it (confirmed with autoconfirm on). */
export async function insertEmailUser(db: Db, user: NewUser): Promise<void> {
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3,
       case when $6 then now() end, $4, $5, now(), now(), false)`,
    [user.id, user.email, user.encryptedPassword, EMAIL_APP_METADATA, user.userMetadata, user.emailConfirmed],
  );
  const identityData = {
    ...user.userMetadata,
    sub: user.id,
    email: user.email,
    email_verified: user.emailConfirmed,
    phone_verified: false,
  };
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, 'email', now(), now(), now())`,
    [user.id, user.id, identityData],
  );
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    'select * from auth.users where lower(email) = lower($1) and is_sso_user = false and deleted_at is null',
    [email],
  );
  return result.rows[0] ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>('select * from auth.users where id = $1 and deleted_at is null', [
    id,
  ]);
  return result.rows[0] ?? null;
}

export async function findIdentities(db: Db, userId: string): Promise<IdentityRow[]> {
  const result = await db.query<IdentityRow>(
    'select * from auth.identities where user_id = $1 order by created_at',
    [userId],
  );
  return result.rows;
}

export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
}

/** Merges `changes` into user_metadata; keys whose value is null are removed, as GoTrue does. */
export function mergeUserMetadata(db: Db, userId: string, changes: Record<string, unknown>): Promise<void> {
  return mergeMetadata(db, userId, 'raw_user_meta_data', changes);
}

/** Merges `changes` into app_metadata; keys whose value is null are removed, as GoTrue does. */
export function mergeAppMetadata(db: Db, userId: string, changes: Record<string, unknown>): Promise<void> {
  return mergeMetadata(db, userId, 'raw_app_meta_data', changes);
}

async function mergeMetadata(
  db: Db,
  userId: string,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  changes: Record<string, unknown>,
): Promise<void> {
  const removed = Object.keys(changes).filter((key) => changes[key] === null);
  const kept = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== null));
  await db.query(
    `update auth.users
     set ${column} = (coalesce(${column}, '{}'::jsonb) || $2::jsonb) - $3::text[],
         updated_at = now()
     where id = $1`,
    [userId, kept, removed],
  );
}

/** A new password; as GoTrue, it voids every pending e-mail token (a recovery link cannot be replayed). */
export async function updatePasswordHash(db: Db, userId: string, encryptedPassword: string): Promise<void> {
  await db.query(
    `update auth.users set encrypted_password = $2, confirmation_token = '', confirmation_sent_at = null,
       recovery_token = '', recovery_sent_at = null, updated_at = now()
     where id = $1`,
    [userId, encryptedPassword],
  );
  await db.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
}
