import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth-errors.ts';
import { formText } from '../../../lib/form-validation.ts';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { validateForgotPassword } from '../auth-forms.ts';

export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const [invalid, setInvalid] = useState<string>();
  const failure = request.error ? describeAuthError(request.error) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateForgotPassword({ email: formText(event.currentTarget, 'email') });
    setInvalid(checked.ok ? undefined : checked.errors.email);
    if (!checked.ok) {
      request.reset();
      return;
    }
    request.mutate(checked.data.email);
  }

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
    <form className="form" noValidate onSubmit={submit}>
      {failure && failure.field !== 'email' && <Alert>{failure.message}</Alert>}
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={invalid ?? messageFor(failure, 'email')}
      />
      <Button type="submit" variant="primary" disabled={request.isPending}>
        {request.isPending ? 'Sending…' : 'Send the link'}
      </Button>
    </form>
  );
}
