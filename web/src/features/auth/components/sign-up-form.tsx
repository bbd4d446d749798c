import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth-errors.ts';
import { PASSWORD_HINT } from '../../../lib/credential-rules.ts';
import { formText, type FieldErrors } from '../../../lib/form-validation.ts';
import { useSignUp, type SignUpResult } from '../api/sign-up.ts';
import { validateSignUp, type SignUpField } from '../auth-forms.ts';

interface SignUpFormProps {
  onSignedUp: (result: SignUpResult) => void;
}

export function SignUpForm({ onSignedUp }: SignUpFormProps) {
  const signUp = useSignUp();
  const [errors, setErrors] = useState<FieldErrors<SignUpField>>({});
  const failure = signUp.error ? describeAuthError(signUp.error) : null;
  const errorFor = (field: SignUpField) => errors[field] ?? messageFor(failure, field);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validateSignUp({
      email: formText(form, 'email'),
      password: formText(form, 'password'),
      displayName: formText(form, 'display_name'),
    });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) {
      signUp.reset();
      return;
    }
    signUp.mutate(checked.data, { onSuccess: onSignedUp });
  }

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure && failure.field === null && <Alert>{failure.message}</Alert>}
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={errorFor('email')}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_HINT}
        error={errorFor('password')}
      />
      <TextField
        label="Display name (optional)"
        name="display_name"
        autoComplete="name"
        hint="The name your teammates see. You can change it later."
        error={errorFor('display_name')}
      />
      <Button type="submit" variant="primary" disabled={signUp.isPending}>
        {signUp.isPending ? 'Creating your account…' : 'Create account'}
      </Button>
    </form>
  );
}
