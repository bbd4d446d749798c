import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fetchMock } from '../../../testing/fetch-mock.ts';
import { renderWithQueries } from '../../../testing/render.tsx';
import { SignInForm } from './sign-in-form.tsx';

/** Supabase Auth as the browser reaches it: the real client, with fetch answered here. */
function authAnswers(status: number, body: object): typeof fetchMock {
  // Auth answers errors as JSON, not problem+json.
  fetchMock.mockImplementation(() =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
  return fetchMock;
}

function signInCalls(spy: typeof fetchMock) {
  return spy.mock.calls.filter(([input]) => String(input).includes('/auth/v1/token'));
}

describe('SignInForm', () => {
  it('names each field that breaks a rule next to it, and sends nothing', async () => {
    const answered = authAnswers(500, {});
    const onSignedIn = vi.fn();
    const { user } = renderWithQueries(<SignInForm onSignedIn={onSignedIn} />);

    await user.type(screen.getByLabelText('E-mail'), 'ada@');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const email = screen.getByLabelText('E-mail');
    const password = screen.getByLabelText('Password');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(email)).toBe('E-mail must be a valid e-mail address.');
    expect(describedBy(password)).toBe('Password is required.');
    expect(signInCalls(answered)).toHaveLength(0);
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("shows Supabase Auth's refusal above the form, without saying which field was wrong", async () => {
    const answered = authAnswers(400, {
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
    const onSignedIn = vi.fn();
    const { user } = renderWithQueries(<SignInForm onSignedIn={onSignedIn} />);

    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'That e-mail and password do not match an account.',
    );
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();
    expect(signInCalls(answered)).toHaveLength(1);
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});

/** The text a screen reader reads after the field's name: its hint and error, as aria-describedby says. */
function describedBy(field: HTMLElement): string {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}
