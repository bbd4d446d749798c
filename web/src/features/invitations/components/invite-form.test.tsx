import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { InviteForm } from './invite-form.tsx';

const acceptUrl = `http://localhost:5173/invite/${'a'.repeat(43)}`;

describe('InviteForm', () => {
  it('sends the address and role, then shows the accept link to copy', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        apiAnswer(201, {
          object: 'invitation',
          id: '00000000-0000-4000-8000-000000000001',
          workspace_id: '00000000-0000-4000-8000-000000000002',
          email: 'grace@example.com',
          role: 'viewer',
          status: 'pending',
          invited_by: null,
          accepted_by: null,
          expires_at: '2030-01-01T00:00:00Z',
          version: 1,
          created_at: '2029-12-25T00:00:00Z',
          updated_at: '2029-12-25T00:00:00Z',
          accept_url: acceptUrl,
        }),
      ),
    );
    const { user } = renderWithQueries(<InviteForm slug="acme" callerRole="admin" />);

    expect(screen.queryByRole('option', { name: 'Owner' })).toBeNull();
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.selectOptions(screen.getByLabelText('Role'), 'viewer');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect((await screen.findByTestId<HTMLInputElement>('invitation-accept-url')).value).toBe(acceptUrl);
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(await request.json()).toEqual({ email: 'grace@example.com', role: 'viewer' });
  });

  it("checks the address with the API's rules and shows the API's refusal beside it", async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        apiAnswer(409, {
          type: 'https://tasklane.dev/problems/invitation_exists',
          title: 'Invitation exists',
          status: 409,
          code: 'invitation_exists',
          detail:
            'grace@example.com already has a pending invitation to this workspace; revoke it to invite again.',
          request_id: 'req-1',
        }),
      ),
    );
    const { user } = renderWithQueries(<InviteForm slug="acme" callerRole="owner" />);
    const email = screen.getByLabelText('E-mail');

    await user.type(email, 'grace');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(screen.getByText('E-mail must be a valid e-mail address.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(email, '@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    await screen.findByText(/already has a pending invitation/);
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });
});
