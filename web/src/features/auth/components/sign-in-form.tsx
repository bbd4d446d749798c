import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth-errors.ts';
import { formText, type FieldErrors } from '../../../lib/form-validation.ts';
import { useSignIn, type SignInResult } from '../api/sign-in.ts';
import { validateSignIn, type SignInField } from '../auth-forms.ts';

interface SignInFormProps {
  onSignedIn: (result: SignInResult) => void;
}

export function SignInForm({ onSignedIn }: SignInFormProps) {
  const signIn = useSignIn();
  const [errors, setErrors] = useState<FieldErrors<SignInField>>({});
  const failure = signIn.error ? describeAuthError(signIn.error) : null;
  const errorFor = (field: SignInField) => errors[field] ?? messageFor(failure, field);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validateSignIn({ email: formText(form, 'email'), password: formText(form, 'password') });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) {
      signIn.reset();
      return;
    }
    signIn.mutate(checked.data, { onSuccess: onSignedIn });
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
        autoComplete="current-password"
        required
        error={errorFor('password')}
      />
      <Button type="submit" variant="primary" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
