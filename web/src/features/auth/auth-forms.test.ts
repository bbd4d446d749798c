import { describe, expect, it } from 'vitest';
import { validateForgotPassword, validateSignIn, validateSignUp } from './auth-forms.ts';

describe('validateSignUp', () => {
  it('accepts an account and leaves out a blank display name', () => {
    expect(
      validateSignUp({ email: ' ada@example.com ', password: 'correct horse', displayName: '  ' }),
    ).toEqual({ ok: true, data: { email: 'ada@example.com', password: 'correct horse' } });
  });

  it('keeps a display name, trimmed', () => {
    const result = validateSignUp({
      email: 'ada@example.com',
      password: 'correct horse',
      displayName: ' Ada ',
    });

    expect(result).toEqual({
      ok: true,
      data: { email: 'ada@example.com', password: 'correct horse', display_name: 'Ada' },
    });
  });

  it("reports every field that breaks the API's account rules", () => {
    expect(validateSignUp({ email: 'ada', password: 'short', displayName: 'x'.repeat(81) })).toEqual({
      ok: false,
      errors: {
        email: 'E-mail must be a valid e-mail address.',
        password: 'Password must be at least 10 characters.',
        display_name: 'Display name must be at most 80 characters.',
      },
    });
    expect(
      validateSignUp({ email: 'ada@example.com', password: 'ada@example.com', displayName: '' }),
    ).toEqual({ ok: false, errors: { password: 'Password must not be your e-mail address.' } });
  });
});

describe('validateSignIn', () => {
  it('needs an e-mail address and some password, whatever its length', () => {
    expect(validateSignIn({ email: 'ada@example.com', password: 'old' })).toEqual({
      ok: true,
      data: { email: 'ada@example.com', password: 'old' },
    });
    expect(validateSignIn({ email: '', password: '' })).toEqual({
      ok: false,
      errors: { email: 'E-mail must be a valid e-mail address.', password: 'Password is required.' },
    });
  });
});

describe('validateForgotPassword', () => {
  it('needs a valid e-mail address', () => {
    expect(validateForgotPassword({ email: 'ada@example.com' })).toEqual({
      ok: true,
      data: { email: 'ada@example.com' },
    });
    expect(validateForgotPassword({ email: 'ada@' })).toMatchObject({ ok: false });
  });
});
