import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth-errors.ts';
import { PASSWORD_HINT, validateNewPassword, type NewPasswordField } from '../../../lib/credential-rules.ts';
import { formText, type FieldErrors } from '../../../lib/form-validation.ts';
import { useSetPassword } from '../api/set-password.ts';

interface NewPasswordFormProps {
  /** The account's e-mail, which the new password may not be. */
  email: string;
  onChanged: () => void;
}

/** Choosing a new password after following a recovery link. */
export function NewPasswordForm({ email, onChanged }: NewPasswordFormProps) {
  const setPassword = useSetPassword();
  const [errors, setErrors] = useState<FieldErrors<NewPasswordField>>({});
  const failure = setPassword.error ? describeAuthError(setPassword.error) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validateNewPassword({
      email,
      password: formText(form, 'password'),
      confirmation: formText(form, 'confirmation'),
    });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) {
      setPassword.reset();
      return;
    }
    setPassword.mutate(checked.data.password, { onSuccess: onChanged });
  }

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure && failure.field !== 'password' && <Alert>{failure.message}</Alert>}
      <NewPasswordFields
        hint={PASSWORD_HINT}
        passwordError={errors.password ?? messageFor(failure, 'password')}
        confirmationError={errors.confirmation}
      />
      <Button type="submit" variant="primary" disabled={setPassword.isPending}>
        {setPassword.isPending ? 'Saving…' : 'Set the new password'}
      </Button>
    </form>
  );
}
