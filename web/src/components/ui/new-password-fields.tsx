import { TextField } from './text-field.tsx';

interface NewPasswordFieldsProps {
  /** The rules in words, shown under the first field. */
  hint: string;
  passwordError?: string | undefined;
  confirmationError?: string | undefined;
}

/** A new password typed twice (fields `password` and `confirmation`), as password managers expect. */
export function NewPasswordFields({ hint, passwordError, confirmationError }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={hint}
        error={passwordError}
      />
      <TextField
        label="Repeat the new password"
        name="confirmation"
        type="password"
        autoComplete="new-password"
        required
        error={confirmationError}
      />
    </>
  );
}
