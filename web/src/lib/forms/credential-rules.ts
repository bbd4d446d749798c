import * as z from 'zod/mini';
import { CredentialsSchema, PASSWORD_LENGTH } from '@api/me/me.schemas.ts';
import { formText, hasErrors, validateForm, type FieldErrors, type Validation } from './form-validation.ts';

/**
 * Form rules that both the sign-in screens and the account screen apply: choosing a new password and
 * typing a code from an authenticator app.
 */

/** The password rules in words, for the hint under every field that chooses a password. */
export const PASSWORD_HINT = `${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters, not your e-mail address.`;

const OneTimeCodeSchema = z.object({
  code: z.string().check(z.regex(/^\d{6}$/, 'must be the 6 digits your authenticator app shows')),
});

/** The code as typed; spaces are dropped, since apps often show it as "123 456". */
export function validateOneTimeCode(typed: string): Validation<{ code: string }, 'code'> {
  return validateForm(OneTimeCodeSchema, { code: typed.replace(/\s+/g, '') }, { code: 'The code' });
}

interface NewPasswordValues {
  /** The account's e-mail: a password may not be the e-mail itself. */
  email: string;
  password: string;
  confirmation: string;
}

export type NewPasswordField = 'password' | 'confirmation';

export function validateNewPassword(
  values: NewPasswordValues,
): Validation<{ password: string }, NewPasswordField> {
  const checked = validateForm(
    CredentialsSchema,
    { email: values.email, password: values.password },
    { password: 'The password' },
  );
  const errors: FieldErrors<NewPasswordField> = checked.ok ? {} : { ...checked.errors };
  if (!errors.password && values.confirmation !== values.password) {
    errors.confirmation = 'The two passwords do not match.';
  }
  if (hasErrors(errors) || !checked.ok) return { ok: false, errors };
  return { ok: true, data: { password: checked.data.password } };
}

/** Checks the new password typed into a form's NewPasswordFields. */
export function validateNewPasswordFields(
  form: HTMLFormElement,
  email: string,
): Validation<{ password: string }, NewPasswordField> {
  return validateNewPassword({
    email,
    password: formText(form, 'password'),
    confirmation: formText(form, 'confirmation'),
  });
}
