import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth-errors.ts';
import { useAuthState } from '../../../lib/auth-session.ts';
import { PASSWORD_HINT, validateNewPassword, type NewPasswordField } from '../../../lib/credential-rules.ts';
import { formText, type FieldErrors } from '../../../lib/form-validation.ts';
import { useChangePassword } from '../api/change-password.ts';

export function PasswordSection() {
  const { session } = useAuthState();
  const change = useChangePassword();
  const [errors, setErrors] = useState<FieldErrors<NewPasswordField>>({});
  const failure = change.error ? describeAuthError(change.error) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validateNewPassword({
      email: session?.user.email ?? '',
      password: formText(form, 'password'),
      confirmation: formText(form, 'confirmation'),
    });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) {
      change.reset();
      return;
    }
    change.mutate(checked.data.password, { onSuccess: () => form.reset() });
  }

  return (
    <PanelSection title="Password">
      <form className="form" noValidate onSubmit={submit}>
        {failure && failure.field !== 'password' && <Alert>{failure.message}</Alert>}
        <NewPasswordFields
          hint={PASSWORD_HINT}
          passwordError={errors.password ?? messageFor(failure, 'password')}
          confirmationError={errors.confirmation}
        />
        <div className="form__actions">
          <Button type="submit" variant="primary" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </Button>
        </div>
        {change.isSuccess && <Notice>Your password was changed. Your other devices were signed out.</Notice>}
      </form>
    </PanelSection>
  );
}
