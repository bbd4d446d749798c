import { Form } from '../../../components/ui/form.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { PASSWORD_HINT, validateNewPasswordFields } from '../../../lib/forms/credential-rules.ts';
import { useSetPassword } from '../api/set-password.ts';

interface NewPasswordFormProps {
  /** The account's e-mail, which the new password may not be. */
  email: string;
  onChanged: () => void;
}

/** Choosing a new password after following a recovery link. */
export function NewPasswordForm({ email, onChanged }: NewPasswordFormProps) {
  const setPassword = useSetPassword();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: setPassword,
    fields: ['password', 'confirmation'],
    validate: (form) => validateNewPasswordFields(form, email),
    send: ({ password }) => setPassword.mutate(password, { onSuccess: onChanged }),
  });

  return (
    <Form onSubmit={submit} error={formError}>
      <NewPasswordFields
        hint={PASSWORD_HINT}
        passwordError={errorFor('password')}
        confirmationError={errorFor('confirmation')}
      />
      <SubmitButton pending={setPassword.isPending} pendingLabel="Saving…">
        Set the new password
      </SubmitButton>
    </Form>
  );
}
