import type { FormEvent } from 'react';
import { describeAuthError, messageFor } from './auth-errors.ts';
import type { Validation } from '../forms/form-validation.ts';
import { useValidatedSubmit } from '../forms/validated-submit.ts';

interface AuthFormOptions<Data, Field extends string> {
  /** The Supabase Auth call the form sends its values with. */
  mutation: { error: unknown; reset: () => void };
  /** The form's fields: an auth error about one of them is shown next to it, any other above the form. */
  fields: readonly Field[];
  validate: (form: HTMLFormElement) => Validation<Data, Field>;
  send: (data: Data, form: HTMLFormElement) => void;
}

interface AuthForm<Field extends string> {
  submit: (event: FormEvent<HTMLFormElement>) => void;
  /** What to show next to `field`: the rule its value broke, or the auth error about it. */
  errorFor: (field: Field) => string | undefined;
  /** The auth error about none of the form's fields, for an alert above them. */
  formError: string | undefined;
}

/** A form that checks its values with the shared rules, then sends them to Supabase Auth. */
export function useAuthForm<Data, Field extends string>({
  mutation,
  fields,
  validate,
  send,
}: AuthFormOptions<Data, Field>): AuthForm<Field> {
  const { errors, submit } = useValidatedSubmit({ mutation, validate, send });
  const failure = mutation.error ? describeAuthError(mutation.error) : null;
  const isFormField = (field: string | null) =>
    field !== null && (fields as readonly string[]).includes(field);
  return {
    submit,
    errorFor: (field) => errors[field] ?? messageFor(failure, field),
    formError: failure && !isFormField(failure.field) ? failure.message : undefined,
  };
}
