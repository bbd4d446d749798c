import { PasswordField } from './password-field.tsx';

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
      <PasswordField label="New password" autoComplete="new-password" hint={hint} error={passwordError} />
      <PasswordField
        label="Repeat the new password"
        name="confirmation"
        autoComplete="new-password"
        error={confirmationError}
      />
    </>
  );
}
