import { EmailField } from './email-field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { useSendSignInLink } from '../api/send-sign-in-link.ts';
import { validateSignInLink } from '../auth-forms.ts';

interface SignInLinkFormProps {
  /** Where the link brings the person back signed in. */
  returnTo: string;
  email?: string | undefined;
  onSent: (email: string) => void;
}

/** Sign-in without a password: the address, and a link mailed to it. */
export function SignInLinkForm({ returnTo, email, onSent }: SignInLinkFormProps) {
  const send = useSendSignInLink();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: send,
    fields: ['email'],
    validate: (form) => validateSignInLink({ email: formText(form, 'email') }),
    send: (values) =>
      send.mutate({ email: values.email, returnTo }, { onSuccess: () => onSent(values.email) }),
  });

  return (
    <Form onSubmit={submit} error={formError}>
      <EmailField error={errorFor('email')} defaultValue={email} />
      <SubmitButton pending={send.isPending} pendingLabel="Sending…">
        E-mail me a link
      </SubmitButton>
    </Form>
  );
}
