import { EmailField } from './email-field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { PASSWORD_HINT } from '../../../lib/forms/credential-rules.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { useSignUp, type SignUpResult } from '../api/sign-up.ts';
import { validateSignUp } from '../auth-forms.ts';

interface SignUpFormProps {
  onSignedUp: (result: SignUpResult) => void;
  /** A path of this app (already checked as safe) the confirmation mail leads back to. */
  returnTo?: string;
  /** The address to start from: the one an invitation was sent to. */
  email?: string | undefined;
}

export function SignUpForm({ onSignedUp, returnTo, email }: SignUpFormProps) {
  const signUp = useSignUp();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: signUp,
    fields: ['email', 'password', 'display_name'],
    validate: (form) =>
      validateSignUp({
        email: formText(form, 'email'),
        password: formText(form, 'password'),
        displayName: formText(form, 'display_name'),
      }),
    send: (account) => signUp.mutate({ ...account, returnTo }, { onSuccess: onSignedUp }),
  });

  return (
    <Form onSubmit={submit} error={formError}>
      <EmailField error={errorFor('email')} defaultValue={email} />
      <PasswordField autoComplete="new-password" hint={PASSWORD_HINT} error={errorFor('password')} />
      <TextField
        label="Display name (optional)"
        name="display_name"
        autoComplete="name"
        hint="The name your teammates see. You can change it later."
        error={errorFor('display_name')}
      />
      <SubmitButton pending={signUp.isPending} pendingLabel="Creating your account…">
        Create account
      </SubmitButton>
    </Form>
  );
}
