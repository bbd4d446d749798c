import * as z from 'zod/mini';
import { CredentialsSchema, DisplayNameSchema, EmailSchema } from '@api/me/me.schemas.ts';
import { validateForm, type Validation } from '../../lib/forms/form-validation.ts';

/** The sign-in screens' form rules, built from the API's account schemas. */

const LABELS = { email: 'E-mail', password: 'Password', display_name: 'Display name' } as const;

const SignUpSchema = z.intersection(
  CredentialsSchema,
  z.object({ display_name: z.optional(DisplayNameSchema) }),
);

export type SignUpField = 'email' | 'password' | 'display_name';

export interface SignUpValues {
  email: string;
  password: string;
  displayName: string;
}

/** A blank display name is left out: the profile then starts from the e-mail's name. */
export function validateSignUp(
  values: SignUpValues,
): Validation<{ email: string; password: string; display_name?: string | undefined }, SignUpField> {
  const displayName = values.displayName.trim();
  return validateForm(
    SignUpSchema,
    { email: values.email, password: values.password, display_name: displayName || undefined },
    LABELS,
  );
}

// Signing in checks only that a password was typed: the length rule applies when one is chosen, and an
// older password that predates a rule must still let its owner in.
const SignInSchema = z.object({
  email: EmailSchema,
  password: z.string().check(z.minLength(1, 'is required')),
});

export type SignInField = 'email' | 'password';

export function validateSignIn(values: {
  email: string;
  password: string;
}): Validation<{ email: string; password: string }, SignInField> {
  return validateForm(SignInSchema, values, { email: LABELS.email, password: LABELS.password });
}

const ForgotPasswordSchema = z.object({ email: EmailSchema });

export function validateForgotPassword(values: { email: string }): Validation<{ email: string }, 'email'> {
  return validateForm(ForgotPasswordSchema, values, { email: LABELS.email });
}

/** The sign-in link form: the address alone. */
export function validateSignInLink(values: { email: string }): Validation<{ email: string }, 'email'> {
  return validateForm(ForgotPasswordSchema, values, { email: LABELS.email });
}
