import { Form } from '../../../components/ui/form.tsx';
import { OneTimeCodeField } from '../../../components/ui/one-time-code-field.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { validateOneTimeCode } from '../../../lib/forms/credential-rules.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { useVerifyTotp } from '../api/verify-totp.ts';

interface TotpStepProps {
  submitLabel?: string;
  onVerified: () => void;
}

/** The second sign-in step: a code from the authenticator app raises the session to aal2. */
export function TotpStep({ submitLabel = 'Verify', onVerified }: TotpStepProps) {
  const verify = useVerifyTotp();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: verify,
    fields: ['code'],
    validate: (form) => validateOneTimeCode(formText(form, 'code')),
    send: ({ code }) => verify.mutate(code, { onSuccess: onVerified }),
  });

  return (
    <Form onSubmit={submit} error={formError}>
      <OneTimeCodeField
        autoFocus
        hint="Open your authenticator app and enter the code it shows for Tasklane."
        error={errorFor('code')}
      />
      <SubmitButton pending={verify.isPending} pendingLabel="Checking…">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}
