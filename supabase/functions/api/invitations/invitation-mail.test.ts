import { describe, expect, it } from 'vitest';
import type { NewInvitation } from '../../_shared/api-types.ts';
import { invitationMail, type InvitationMailInput } from './invitation-mail.ts';

const ACCEPT_URL = 'https://app.example.com/invite/q3ZKf0Xw8mB1vT7yN4cR2hL9sD6jP5eA0uGiOxYzW_k';

/** A whole new invitation, as the API answers it: the mail takes what it needs of it. */
function created(
  overrides: Partial<Pick<InvitationMailInput, 'inviterName' | 'workspaceName'>> = {},
): InvitationMailInput & { invitation: NewInvitation } {
  return {
    invitation: {
      object: 'invitation',
      id: '6e5d4c3b-2a19-4f08-8e7d-6c5b4a392817',
      workspace_id: '2b7e4c1a-5d3f-4e8a-9b6c-1f0e2d3c4b5a',
      email: 'grace@example.com',
      role: 'admin',
      status: 'pending',
      invited_by: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10',
      accepted_by: null,
      expires_at: '2026-11-29T09:05:00.000Z',
      version: 1,
      created_at: '2026-11-22T09:05:00.000Z',
      updated_at: '2026-11-22T09:05:00.000Z',
      accept_url: ACCEPT_URL,
    },
    inviterName: 'Ada Lovelace',
    workspaceName: 'Acme',
    ...overrides,
  };
}

describe('invitationMail', () => {
  it('tells the invitee who invited them where, with the link, in text and HTML', () => {
    const mail = invitationMail(created());
    expect(mail.to).toBe('grace@example.com');
    expect(mail.subject).toBe('Ada Lovelace invited you to Acme on Tasklane');
    expect(mail.text).toContain('Ada Lovelace invited you to join Acme on Tasklane as an admin.');
    // The address rides in the fragment, so the page can fill it in (the API never tells it, signed out).
    const link = `${ACCEPT_URL}#email=grace%40example.com`;
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain(
      'The link works until 29 November 2026, 09:05 UTC, for grace@example.com only.',
    );
    expect(mail.html).toContain(`<a href="${link}">Accept the invitation</a>`);
  });

  it('escapes names in the HTML and keeps the subject on one line', () => {
    const mail = invitationMail(
      created({
        inviterName: 'Eve <script>alert(1)</script>\r\nBcc: x@evil.test',
        workspaceName: 'R&D "Lab"',
      }),
    );
    expect(mail.subject).toBe(
      'Eve <script>alert(1)</script> Bcc: x@evil.test invited you to R&D "Lab" on Tasklane',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Eve &lt;script&gt;alert(1)&lt;/script&gt; Bcc: x@evil.test');
    expect(mail.html).toContain('<strong>R&amp;D &quot;Lab&quot;</strong>');
  });
});
