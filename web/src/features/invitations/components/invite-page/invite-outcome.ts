import type { components } from '@api-spec/schema.d.ts';

type InvitationPreview = components['schemas']['InvitationPreview'];

/** What the invite page offers: accepting, or the reason not to and what to do instead. */
export type InviteOutcome =
  'accept' | 'sign_up' | 'already_member' | 'used' | 'revoked' | 'expired' | 'wrong_address';

/**
 * Judged in the order accepting would refuse: a used, revoked or expired invitation helps nobody; a
 * member needs none; someone signed out signs up (or in) first; one for another address is not the
 * caller's to accept.
 */
export function inviteOutcome(preview: InvitationPreview, signedIn: boolean): InviteOutcome {
  if (preview.caller_is_member) return 'already_member';
  if (preview.status === 'accepted') return 'used';
  if (preview.status === 'revoked') return 'revoked';
  if (preview.status === 'expired') return 'expired';
  if (!signedIn) return 'sign_up';
  if (!preview.for_caller) return 'wrong_address';
  return 'accept';
}
