import { useState, type FormEvent } from 'react';
import type { FieldErrors, Validation } from './form-validation.ts';

interface ValidatedSubmitOptions<Data, Field extends string> {
  /** The mutation the form sends with; reset when the values break a rule, so its old error goes. */
  mutation: { reset: () => void };
  /** Reads the submitted form's values and checks them. */
  validate: (form: HTMLFormElement) => Validation<Data, Field>;
  /** Sends values that passed. */
  send: (data: Data, form: HTMLFormElement) => void;
}

interface ValidatedSubmit<Field extends string> {
  /** The rules the last submitted values broke, one sentence per field. */
  errors: FieldErrors<Field>;
  submit: (event: FormEvent<HTMLFormElement>) => void;
}

/** A form's submit handler: checks the values first, and sends them only when they keep every rule. */
export function useValidatedSubmit<Data, Field extends string>({
  mutation,
  validate,
  send,
}: ValidatedSubmitOptions<Data, Field>): ValidatedSubmit<Field> {
  const [errors, setErrors] = useState<FieldErrors<Field>>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validate(form);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) {
      mutation.reset();
      return;
    }
    send(checked.data, form);
  }

  return { errors, submit };
}
