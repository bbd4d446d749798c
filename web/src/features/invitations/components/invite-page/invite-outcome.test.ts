import type { components } from '@api-spec/schema.d.ts';
import { describe, expect, it } from 'vitest';
import { inviteOutcome } from './invite-outcome.ts';

type InvitationPreview = components['schemas']['InvitationPreview'];

const pending: InvitationPreview = {
  object: 'invitation_preview',
  workspace: { slug: 'acme', name: 'Acme', require_mfa: false },
  email: 'grace@example.com',
  role: 'member',
  status: 'pending',
  invited_by: { display_name: 'Ada' },
  expires_at: '2026-11-29T09:00:00.000Z',
  for_caller: true,
  caller_is_member: false,
};

describe('inviteOutcome', () => {
  it('offers to accept a pending invitation for the caller', () => {
    expect(inviteOutcome(pending, true)).toBe('accept');
  });

  it('names the state of one that can no longer be accepted, before whose address it is', () => {
    expect(inviteOutcome({ ...pending, status: 'accepted', for_caller: false }, true)).toBe('used');
    expect(inviteOutcome({ ...pending, status: 'revoked', for_caller: false }, true)).toBe('revoked');
    expect(inviteOutcome({ ...pending, status: 'expired', for_caller: false }, true)).toBe('expired');
  });

  it('asks someone signed out to sign up (or in) to accept, after the state of a dead link', () => {
    const signedOut = { ...pending, email: null, for_caller: false };
    expect(inviteOutcome(signedOut, false)).toBe('sign_up');
    expect(inviteOutcome({ ...signedOut, status: 'revoked' }, false)).toBe('revoked');
    expect(inviteOutcome({ ...signedOut, status: 'accepted' }, false)).toBe('used');
  });

  it('tells someone else it is for another address, and a member that they are one', () => {
    expect(inviteOutcome({ ...pending, for_caller: false }, true)).toBe('wrong_address');
    expect(inviteOutcome({ ...pending, status: 'accepted', caller_is_member: true }, true)).toBe(
      'already_member',
    );
  });
});
