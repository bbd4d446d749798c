import type { Db } from '../db.ts';
import { isBanned } from './bans.ts';
import type { AuthContext } from './context.ts';
import { confirmEmailChange } from './email-change.ts';
import type { LinkType } from './email-links.ts';
import { emailTokenHash, isExpired, tokenMatches } from './email-tokens.ts';
import {
  confirmEmail,
  lockUserByEmail,
  lockUserByTokenHash,
  spendRecoveryToken,
  type EmailTokenKind,
} from './email-tokens.queries.ts';
import { AuthError, validationFailed } from './errors.ts';
import type { AuthenticationMethod } from './sessions.queries.ts';
import { findUserById, type UserRow } from './users.queries.ts';

/** The `type`s `/verify` accepts; `email` is either a sign-up or a magic-link code. */
export type VerificationType = LinkType | 'email';

export interface Verified {
  user: UserRow;
  type: LinkType;
  /** Which of the user's pending tokens matched. */
  kind: EmailTokenKind;
}

/** The `amr` method of the session a verification starts (recovery sessions may set a new password). */
export const SESSION_METHOD: Record<LinkType, AuthenticationMethod> = {
  signup: 'otp',
  recovery: 'recovery',
  magiclink: 'otp',
  invite: 'otp',
  email_change: 'otp',
};

const linkInvalid = () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
const codeInvalid = () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid');

const TYPES = new Set<string>(['signup', 'recovery', 'magiclink', 'invite', 'email_change', 'email']);

export function verificationType(type: string): VerificationType {
  if (TYPES.has(type)) return type as VerificationType;
  throw validationFailed('Invalid email verification type');
}

interface Candidate {
  kind: EmailTokenKind;
  type: LinkType;
}

/** The pending tokens a verification of `type` may match, and what each one is. */
function candidates(type: VerificationType): Candidate[] {
  switch (type) {
    case 'email':
      return [
        { kind: 'confirmation', type: 'signup' },
        { kind: 'recovery', type: 'magiclink' },
      ];
    case 'signup':
    case 'invite':
      return [{ kind: 'confirmation', type }];
    case 'recovery':
    case 'magiclink':
      return [{ kind: 'recovery', type }];
    case 'email_change':
      return [
        { kind: 'email_change_current', type },
        { kind: 'email_change_new', type },
      ];
  }
}

/** A link's token (or a `token_hash`): the user it was sent to, if the token is still pending and fresh. */
export async function verifyTokenHash(db: Db, type: VerificationType, tokenHash: string): Promise<Verified> {
  for (const candidate of candidates(type)) {
    const user = await lockUserByTokenHash(db, candidate.kind, tokenHash);
    if (!user) continue;
    assertNotBanned(user);
    if (isExpired(sentAt(user, candidate.kind))) throw linkInvalid();
    return { user, ...candidate };
  }
  throw linkInvalid();
}

/**
 * An e-mail and the code from the mail: the user, if the code matches a pending, fresh token. An e-mail
 * change's code goes with the address it was sent to: the current one or the new one.
 */
export async function verifyEmailCode(
  db: Db,
  type: VerificationType,
  email: string,
  code: string,
): Promise<Verified> {
  const hash = emailTokenHash(email, code);
  for (const candidate of candidates(type)) {
    const user = await lockCandidateUser(db, candidate.kind, email);
    if (!user) continue;
    assertNotBanned(user);
    if (tokenMatches(pendingToken(user, candidate.kind), hash) && !isExpired(sentAt(user, candidate.kind))) {
      return { user, ...candidate };
    }
  }
  throw codeInvalid();
}

async function lockCandidateUser(db: Db, kind: EmailTokenKind, email: string): Promise<UserRow | null> {
  if (kind !== 'email_change_new') return lockUserByEmail(db, email);
  const result = await db.query<UserRow>(
    `select * from auth.users
     where lower(email_change) = lower($1) and is_sso_user = false and deleted_at is null for update`,
    [email],
  );
  return result.rows[0] ?? null;
}

/**
 * Spends the token and does what it was for: confirms the address, lets the holder in to recover, or
 * changes the address. `null` when an e-mail change still waits for its other confirmation.
 */
export async function applyVerification(
  context: AuthContext,
  db: Db,
  { user, type, kind }: Verified,
): Promise<UserRow | null> {
  if (type === 'email_change') return confirmEmailChange(context, db, user, kind);
  if (kind === 'confirmation' || !user.email_confirmed_at) await confirmEmail(db, user.id);
  if (kind === 'recovery') await spendRecoveryToken(db, user.id);
  const updated = await findUserById(db, user.id);
  if (!updated) throw new Error('the verified user vanished');
  return updated;
}

function pendingToken(user: UserRow, kind: EmailTokenKind): string | null {
  switch (kind) {
    case 'confirmation':
      return user.confirmation_token;
    case 'recovery':
      return user.recovery_token;
    case 'reauthentication':
      return user.reauthentication_token;
    case 'email_change_current':
      return user.email_change_token_current;
    case 'email_change_new':
      return user.email_change_token_new;
  }
}

function sentAt(user: UserRow, kind: EmailTokenKind): Date | null {
  switch (kind) {
    case 'confirmation':
      return user.confirmation_sent_at;
    case 'recovery':
      return user.recovery_sent_at;
    case 'reauthentication':
      return user.reauthentication_sent_at;
    case 'email_change_current':
    case 'email_change_new':
      return user.email_change_sent_at;
  }
}

function assertNotBanned(user: UserRow): void {
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
}
