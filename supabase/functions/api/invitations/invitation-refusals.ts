/**
 * What `private.create_invitation` and `private.accept_invitation` refuse (the API's error code as the
 * hint), as the API says it. The queries module translates with these; `invitationNotFound` is also the
 * routes' answer to a token that cannot be one.
 */
import { AppError } from '../../_shared/errors.ts';
import { INVITATIONS_PER_RECIPIENT_PER_DAY, MEMBERS_PER_WORKSPACE } from '../../_shared/limits.ts';
import { raisedErrorCode, raisedErrorDetail, type Refusals } from '../../_shared/sql-errors.ts';

export function invitationNotFound(): AppError {
  return new AppError('not_found', 'No invitation has this token, or it has already been accepted.');
}

export const creationRefusals =
  (email: string): Refusals =>
  (error) => {
    switch (raisedErrorCode(error)) {
      case 'already_member':
        return new AppError('already_member', `${email} is already a member of this workspace.`);
      case 'invitation_exists':
        return new AppError(
          'invitation_exists',
          `${email} already has a pending invitation to this workspace; revoke it to invite again.`,
        );
      case 'limit_reached':
        return new AppError(
          'limit_reached',
          `This workspace has ${MEMBERS_PER_WORKSPACE} members and pending invitations, the limit (members_per_workspace).`,
        );
      case 'rate_limited':
        return recipientThrottled(email, raisedErrorDetail(error));
      default:
        return undefined;
    }
  };

/**
 * The address was invited too often today, in all workspaces. (The inviter's own hourly budget is checked
 * before, under the same lock, so a `rate_limited` from the database is the recipient's.)
 */
function recipientThrottled(email: string, retryAfterDetail: string | undefined): AppError {
  const retryAfter = Math.max(1, Number.parseInt(retryAfterDetail ?? '', 10) || 24 * 60 * 60);
  return new AppError(
    'rate_limited',
    `${email} has received ${INVITATIONS_PER_RECIPIENT_PER_DAY} invitations in the last 24 hours, the limit (invitations_per_recipient_per_day). Try again in ${retryAfter} seconds.`,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

export const acceptRefusals: Refusals = (error) => {
  switch (raisedErrorCode(error)) {
    case 'not_found':
      return invitationNotFound();
    case 'invitation_revoked':
      return new AppError('invitation_revoked', 'This invitation was revoked. Ask for a new one.');
    case 'invitation_expired':
      return new AppError('invitation_expired');
    case 'forbidden':
      return new AppError(
        'forbidden',
        'This invitation is for another e-mail address. Sign in as the invited person to accept it.',
      );
    case 'email_not_confirmed':
      return new AppError('email_not_confirmed');
    case 'already_member':
      return new AppError('already_member', 'You are already a member of this workspace.');
    default:
      return undefined;
  }
};
