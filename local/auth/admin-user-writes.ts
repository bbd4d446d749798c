import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Db } from '../db.ts';
import { adminUserEndpoint } from './admin-user-endpoint.ts';
import {
  confirmEmail,
  findAnyUserById,
  findOtherUserWithEmail,
  insertEmailIdentity,
  setBannedUntil,
  setEmail,
  setUserRole,
  updateEmailIdentity,
} from './admin-users.queries.ts';
import { parseBanDuration } from './bans.ts';
import type { AuthContext } from './context.ts';
import { normalizeEmail } from './emails.ts';
import { AuthError, validationFailed } from './errors.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';
import { requireAdmin } from './require-admin.ts';
import { deleteUserSessions } from './sessions.queries.ts';
import { loadUserJson } from './user-json.ts';
import { registerEmailUser } from './user-registration.ts';
import { mergeAppMetadata, mergeUserMetadata, updatePasswordHash } from './users.queries.ts';
import { isUuid } from './uuids.ts';

/** GoTrue's AdminUserParams. */
const AdminUserBody = z.object({
  id: z.string().optional(),
  aud: z.string().optional(),
  role: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().nullish(),
  password_hash: z.string().optional(),
  email_confirm: z.boolean().optional(),
  phone_confirm: z.boolean().optional(),
  user_metadata: z.record(z.string(), z.unknown()).nullish(),
  app_metadata: z.record(z.string(), z.unknown()).nullish(),
  ban_duration: z.string().optional(),
});
type AdminUserBody = z.infer<typeof AdminUserBody>;

const DEFAULT_ROLE = 'authenticated';
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const UNIQUE_VIOLATION = '23505';

/**
 * POST /admin/users → User. Without `email_confirm: true` the user is unconfirmed (and cannot sign in
 * with the password); without a password it gets a random one, as GoTrue does.
 */
export async function createUser(context: AuthContext, req: IncomingMessage): Promise<Reply> {
  await requireAdmin(context, req);
  const body = await readJsonBody(req, AdminUserBody);
  refuseUnsupportedAttributes(body);
  if (!body.email) throw validationFailed('Cannot create a user without either an email or phone');
  const email = normalizeEmail(body.email);
  if (await findOtherUserWithEmail(context.database.statements, email, null)) throw emailExists();
  // Stricter than GoTrue, which only checks the policy on update: Tasklane's rule holds everywhere.
  if (body.password) assertAcceptablePassword(body.password, email);
  const id = customId(body.id);
  const bannedUntil = banEnd(body.ban_duration);
  const userId = await context.database
    .transaction(async (db) => {
      const user = await registerEmailUser(db, {
        id,
        email,
        password: body.password || randomPassword(),
        userMetadata: body.user_metadata ?? {},
        emailConfirmed: false,
      });
      await setUserRole(db, user.id, body.role || DEFAULT_ROLE);
      await applyChanges(db, user.id, { ...body, user_metadata: undefined }, bannedUntil);
      return user.id;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailExists() : error;
    });
  return ok(await adminUserJson(context, userId));
}

/** PUT /admin/users/{id} → User. A new password signs the user out everywhere, as GoTrue's does. */
export const updateUserById = adminUserEndpoint(async (context, req, user) => {
  const body = await readJsonBody(req, AdminUserBody);
  refuseUnsupportedAttributes(body);
  const email = body.email ? normalizeEmail(body.email) : null;
  const bannedUntil = banEnd(body.ban_duration);
  const newHash =
    typeof body.password === 'string' ? await acceptedHash(body.password, email ?? user.email) : null;
  await context.database
    .transaction(async (db) => {
      if (body.role) await setUserRole(db, user.id, body.role);
      if (newHash) {
        await updatePasswordHash(db, user.id, newHash);
        await deleteUserSessions(db, user.id, null);
      }
      if (email) await changeEmail(db, user.id, email, body.email_confirm ?? false);
      await applyChanges(db, user.id, body, bannedUntil);
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailExists() : error;
    });
  return ok(await adminUserJson(context, user.id));
});

/** The changes create and update share, in GoTrue's order. */
async function applyChanges(
  db: Db,
  userId: string,
  body: AdminUserBody,
  bannedUntil: Date | null | undefined,
): Promise<void> {
  if (body.email_confirm) {
    await confirmEmail(db, userId);
    await mergeUserMetadata(db, userId, { email_verified: true });
  }
  if (body.app_metadata) await mergeAppMetadata(db, userId, body.app_metadata);
  if (body.user_metadata) await mergeUserMetadata(db, userId, body.user_metadata);
  if (bannedUntil !== undefined) await setBannedUntil(db, userId, bannedUntil);
}

async function changeEmail(db: Db, userId: string, email: string, verified: boolean): Promise<void> {
  if (await findOtherUserWithEmail(db, email, userId)) throw emailExists();
  if (!(await updateEmailIdentity(db, userId, email, verified))) {
    await insertEmailIdentity(db, userId, email, verified);
  }
  await setEmail(db, userId, email);
}

function refuseUnsupportedAttributes(body: AdminUserBody): void {
  const unsupported = [
    body.phone ? 'phone' : null,
    body.phone_confirm ? 'phone_confirm' : null,
    body.password_hash ? 'password_hash' : null,
    body.aud && body.aud !== 'authenticated' ? 'aud' : null,
  ].filter((name) => name !== null);
  if (unsupported.length > 0) {
    throw new AuthError(
      422,
      'feature_disabled',
      `${unsupported.join(', ')} is not supported by the stand-in's admin API yet`,
    );
  }
}

function customId(id: string | undefined): string | undefined {
  if (id === undefined || id === '') return undefined;
  if (!isUuid(id)) throw validationFailed('ID must conform to the uuid v4 format');
  if (id === NIL_UUID) throw validationFailed('ID cannot be a nil uuid');
  return id.toLowerCase();
}

function banEnd(banDuration: string | undefined): Date | null | undefined {
  const milliseconds = parseBanDuration(banDuration);
  return typeof milliseconds === 'number' ? new Date(Date.now() + milliseconds) : milliseconds;
}

async function acceptedHash(password: string, email: string | null): Promise<string> {
  assertAcceptablePassword(password, email ?? '');
  return hashPassword(password);
}

/** GoTrue generates 64 characters when the admin gives no password. */
function randomPassword(): string {
  return randomBytes(48).toString('base64url');
}

async function adminUserJson(context: AuthContext, userId: string): Promise<Record<string, unknown>> {
  const user = await findAnyUserById(context.database.statements, userId);
  if (!user) throw new Error('the user vanished while being written');
  return loadUserJson(context.database.statements, user);
}

function emailExists(): AuthError {
  return new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === UNIQUE_VIOLATION;
}
