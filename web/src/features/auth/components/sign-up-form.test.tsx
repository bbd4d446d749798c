import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { SignUpForm } from './sign-up-form.tsx';

/** Supabase Auth answering a sign-up on a project that confirms addresses first: a user, no session. */
function authConfirmsFirst() {
  const user = { id: '7d0f1f8e-2f5a-4c3e-9d61-2b1f0c1d7a10', email: 'ada@example.com', aud: 'authenticated' };
  fetchMock.mockImplementation(() =>
    Promise.resolve(
      new Response(JSON.stringify(user), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
}

async function signUpWith(returnTo?: string) {
  authConfirmsFirst();
  const { user } = renderWithQueries(<SignUpForm onSignedUp={vi.fn()} returnTo={returnTo} />);
  await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'a long enough password');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  const signUpCall = () => fetchMock.mock.calls.find(([url]) => String(url).includes('/auth/v1/signup'));
  await waitFor(() => expect(signUpCall()).toBeDefined());
  return new URL(String(signUpCall()?.[0])).searchParams.get('redirect_to');
}

describe('SignUpForm', () => {
  it('asks for the confirmation link to lead back to the invitation it came from', async () => {
    expect(await signUpWith('/invite/tok_123')).toBe(`${window.location.origin}/invite/tok_123`);
  });

  it('leads back to the app itself otherwise', async () => {
    expect(await signUpWith()).toBe(window.location.origin);
  });

  it('starts from the invited address when given one, and it can still be changed', async () => {
    const { user } = renderWithQueries(<SignUpForm onSignedUp={vi.fn()} email="grace@example.com" />);
    const field = screen.getByLabelText<HTMLInputElement>('E-mail');
    expect(field.value).toBe('grace@example.com');
    await user.clear(field);
    await user.type(field, 'g@example.com');
    expect(field.value).toBe('g@example.com');
  });
});
