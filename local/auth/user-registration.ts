import { randomUUID } from 'node:crypto';
import type { Db } from '../db.ts';
import { hashPassword } from './passwords.ts';
import { findUserById, insertEmailUser, type UserRow } from './users.queries.ts';

export interface Registration {
  /** Already normalized (see `normalizeEmail`) and checked against the password policy by the caller. */
  email: string;
  password: string;
  userMetadata: Record<string, unknown>;
  emailConfirmed: boolean;
  /** The admin API may choose the user's id; a random UUID otherwise. */
  id?: string;
}

/**
 * Creates an e-mail user with its bcrypt hash and e-mail identity, as GoTrue's signup does; sign-up,
 * the admin API and the demo account all go through here. Call it inside a transaction.
 */
export async function registerEmailUser(db: Db, registration: Registration): Promise<UserRow> {
  const id = registration.id ?? randomUUID();
  await insertEmailUser(db, {
    id,
    email: registration.email,
    encryptedPassword: await hashPassword(registration.password),
    userMetadata: registration.userMetadata,
    emailConfirmed: registration.emailConfirmed,
  });
  const user = await findUserById(db, id);
  if (!user) throw new Error('the new user vanished');
  return user;
}
