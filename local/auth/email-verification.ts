import type { Db } from '../db.ts';
import { isBanned } from './bans.ts';
import { TOKEN_KIND, type LinkType } from './email-links.ts';
import { emailTokenHash, isExpired, tokenMatches } from './email-tokens.ts';
import {
  confirmEmail,
  lockUserByEmail,
  lockUserByTokenHash,
  spendRecoveryToken,
} from './email-tokens.queries.ts';
import { AuthError, validationFailed } from './errors.ts';
import type { AuthenticationMethod } from './sessions.queries.ts';
import { findUserById, type UserRow } from './users.queries.ts';

/** The `type`s `/verify` accepts; `email` is either a sign-up or a magic-link code. */
export type VerificationType = LinkType | 'email';

export interface Verified {
  user: UserRow;
  type: LinkType;
}

/** The `amr` method of the session a verification starts (recovery sessions may set a new password). */
export const SESSION_METHOD: Record<LinkType, AuthenticationMethod> = {
  signup: 'otp',
  recovery: 'recovery',
  magiclink: 'otp',
};

const linkInvalid = () => new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
const codeInvalid = () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid');

export function verificationType(type: string): VerificationType {
  if (type === 'signup' || type === 'recovery' || type === 'magiclink' || type === 'email') return type;
  throw validationFailed('Invalid email verification type');
}

/** A link's token (or a `token_hash`): the user it was sent to, if the token is still pending and fresh. */
export async function verifyTokenHash(db: Db, type: VerificationType, tokenHash: string): Promise<Verified> {
  for (const candidate of candidates(type)) {
    const user = await lockUserByTokenHash(db, TOKEN_KIND[candidate], tokenHash);
    if (!user) continue;
    assertNotBanned(user);
    if (isExpired(sentAt(user, candidate))) throw linkInvalid();
    return { user, type: candidate };
  }
  throw linkInvalid();
}

/** An e-mail and the code from the mail: the user, if the code matches a pending, fresh token. */
export async function verifyEmailCode(
  db: Db,
  type: VerificationType,
  email: string,
  code: string,
): Promise<Verified> {
  const user = await lockUserByEmail(db, email);
  if (!user) throw codeInvalid();
  assertNotBanned(user);
  const hash = emailTokenHash(email, code);
  const match = candidates(type).find(
    (candidate) => tokenMatches(pendingToken(user, candidate), hash) && !isExpired(sentAt(user, candidate)),
  );
  if (!match) throw codeInvalid();
  return { user, type: match };
}

/** Spends the token and does what it was for: confirms the address, or lets the holder in to recover. */
export async function applyVerification(db: Db, { user, type }: Verified): Promise<UserRow> {
  if (type === 'signup' || !user.email_confirmed_at) await confirmEmail(db, user.id);
  if (type !== 'signup') await spendRecoveryToken(db, user.id);
  const updated = await findUserById(db, user.id);
  if (!updated) throw new Error('the verified user vanished');
  return updated;
}

function candidates(type: VerificationType): LinkType[] {
  return type === 'email' ? ['signup', 'magiclink'] : [type];
}

function pendingToken(user: UserRow, type: LinkType): string | null {
  return TOKEN_KIND[type] === 'confirmation' ? user.confirmation_token : user.recovery_token;
}

function sentAt(user: UserRow, type: LinkType): Date | null {
  return TOKEN_KIND[type] === 'confirmation' ? user.confirmation_sent_at : user.recovery_sent_at;
}

function assertNotBanned(user: UserRow): void {
  if (isBanned(user)) throw new AuthError(403, 'user_banned', 'User is banned');
}
