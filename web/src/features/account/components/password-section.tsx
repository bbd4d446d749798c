import { Form, FormActions } from '../../../components/ui/form.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { useAuthState } from '../../../lib/auth/auth-session.ts';
import { PASSWORD_HINT, validateNewPasswordFields } from '../../../lib/forms/credential-rules.ts';
import { useChangePassword } from '../api/change-password.ts';

export function PasswordSection() {
  const { session } = useAuthState();
  const change = useChangePassword();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: change,
    fields: ['password', 'confirmation'],
    validate: (form) => validateNewPasswordFields(form, session?.user.email ?? ''),
    send: ({ password }, form) => change.mutate(password, { onSuccess: () => form.reset() }),
  });

  return (
    <PanelSection title="Password">
      <Form onSubmit={submit} error={formError}>
        <NewPasswordFields
          hint={PASSWORD_HINT}
          passwordError={errorFor('password')}
          confirmationError={errorFor('confirmation')}
        />
        <FormActions>
          <SubmitButton pending={change.isPending} pendingLabel="Changing…">
            Change password
          </SubmitButton>
        </FormActions>
        {change.isSuccess && <Notice>Your password was changed. Your other devices were signed out.</Notice>}
      </Form>
    </PanelSection>
  );
}
