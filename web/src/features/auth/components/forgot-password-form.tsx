import { EmailField } from './email-field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { validateForgotPassword } from '../auth-forms.ts';

export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: request,
    fields: ['email'],
    validate: (form) => validateForgotPassword({ email: formText(form, 'email') }),
    send: ({ email }) => request.mutate(email),
  });

  // The same answer whether or not the address has an account, so the form reveals no one's e-mail.
  if (request.isSuccess) {
    return (
      <Notice>
        If an account exists for {request.variables}, we sent it a link to choose a new password. It works
        once; check your spam folder if nothing arrives within a few minutes.
      </Notice>
    );
  }

  return (
    <Form onSubmit={submit} error={formError}>
      <EmailField error={errorFor('email')} />
      <SubmitButton pending={request.isPending} pendingLabel="Sending…">
        Send the link
      </SubmitButton>
    </Form>
  );
}
