import { describe, expect, it } from 'vitest';
import { validateNewPassword, validateOneTimeCode } from './credential-rules.ts';

describe('validateNewPassword', () => {
  const email = 'ada@example.com';

  it('accepts a password within the rules, typed twice', () => {
    expect(validateNewPassword({ email, password: 'correct horse', confirmation: 'correct horse' })).toEqual({
      ok: true,
      data: { password: 'correct horse' },
    });
  });

  it("applies the API's password rules, with sentences naming the field", () => {
    expect(validateNewPassword({ email, password: 'short', confirmation: 'short' })).toEqual({
      ok: false,
      errors: { password: 'The password must be at least 10 characters.' },
    });
    expect(validateNewPassword({ email, password: 'x'.repeat(73), confirmation: 'x'.repeat(73) })).toEqual({
      ok: false,
      errors: { password: 'The password must be at most 72 characters.' },
    });
    expect(
      validateNewPassword({ email, password: 'ADA@example.com', confirmation: 'ADA@example.com' }),
    ).toEqual({ ok: false, errors: { password: 'The password must not be your e-mail address.' } });
  });

  it('asks for the same password twice', () => {
    expect(validateNewPassword({ email, password: 'correct horse', confirmation: 'correct horsE' })).toEqual({
      ok: false,
      errors: { confirmation: 'The two passwords do not match.' },
    });
  });
});

describe('validateOneTimeCode', () => {
  it('takes six digits, as the app shows them', () => {
    expect(validateOneTimeCode('123456')).toEqual({ ok: true, data: { code: '123456' } });
    expect(validateOneTimeCode(' 123 456 ')).toEqual({ ok: true, data: { code: '123456' } });
  });

  it('refuses anything else', () => {
    for (const typed of ['', '12345', '1234567', '12345a']) {
      expect(validateOneTimeCode(typed), typed).toEqual({
        ok: false,
        errors: { code: 'The code must be the 6 digits your authenticator app shows.' },
      });
    }
  });
});
