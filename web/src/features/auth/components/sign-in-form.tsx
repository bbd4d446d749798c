import { EmailField } from './email-field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { useSignIn, type SignInResult } from '../api/sign-in.ts';
import { validateSignIn } from '../auth-forms.ts';

interface SignInFormProps {
  onSignedIn: (result: SignInResult) => void;
  /** The address to start from: the one an invitation was sent to. */
  email?: string | undefined;
}

export function SignInForm({ onSignedIn, email }: SignInFormProps) {
  const signIn = useSignIn();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: signIn,
    fields: ['email', 'password'],
    validate: (form) =>
      validateSignIn({ email: formText(form, 'email'), password: formText(form, 'password') }),
    send: (credentials) => signIn.mutate(credentials, { onSuccess: onSignedIn }),
  });

  return (
    <Form onSubmit={submit} error={formError}>
      <EmailField error={errorFor('email')} defaultValue={email} />
      <PasswordField autoComplete="current-password" error={errorFor('password')} />
      <SubmitButton pending={signIn.isPending} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
    </Form>
  );
}
