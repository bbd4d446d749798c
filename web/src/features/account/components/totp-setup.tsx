import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyField } from '../../../components/ui/copy-field.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { OneTimeCodeField } from '../../../components/ui/one-time-code-field.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { describeAuthError } from '../../../lib/auth/auth-errors.ts';
import { useAuthForm } from '../../../lib/auth/auth-form.ts';
import { validateOneTimeCode } from '../../../lib/forms/credential-rules.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { useConfirmTotp } from '../api/confirm-totp.ts';
import { useEnrollTotp, type TotpEnrollment } from '../api/enroll-totp.ts';
import { useRemoveFactor } from '../api/remove-factor.ts';

interface TotpSetupProps {
  onEnabled: () => void;
}

/** Adding an authenticator app: scan (or type) its secret, then prove it works with a first code. */
export function TotpSetup({ onEnabled }: TotpSetupProps) {
  const enroll = useEnrollTotp();
  const discard = useRemoveFactor();

  if (!enroll.data) {
    return (
      <>
        <p className="muted">
          Add a second step to signing in: a 6-digit code from an authenticator app on your phone, such as
          1Password, Google Authenticator or Authy.
        </p>
        {enroll.error && <Alert>{describeAuthError(enroll.error).message}</Alert>}
        <Button variant="primary" onClick={() => enroll.mutate()} disabled={enroll.isPending}>
          {enroll.isPending ? 'Preparing…' : 'Set up an authenticator app'}
        </Button>
      </>
    );
  }
  const { factorId } = enroll.data;
  return (
    <ConfirmTotpForm
      enrollment={enroll.data}
      onConfirmed={onEnabled}
      onCancel={() => {
        // The unconfirmed factor is useless; remove it now rather than leave it for the next set-up.
        discard.mutate({ factorId });
        enroll.reset();
      }}
    />
  );
}

interface ConfirmTotpFormProps {
  enrollment: TotpEnrollment;
  onConfirmed: () => void;
  onCancel: () => void;
}

function ConfirmTotpForm({ enrollment, onConfirmed, onCancel }: ConfirmTotpFormProps) {
  const confirm = useConfirmTotp();
  const { submit, errorFor, formError } = useAuthForm({
    mutation: confirm,
    fields: ['code'],
    validate: (form) => validateOneTimeCode(formText(form, 'code')),
    send: ({ code }) => confirm.mutate({ factorId: enrollment.factorId, code }, { onSuccess: onConfirmed }),
  });

  return (
    <Form onSubmit={submit}>
      <ol className="steps">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img
            className="qr-code"
            src={enrollment.qrCode}
            alt="QR code that adds Tasklane to an authenticator app"
            width={180}
            height={180}
          />
          <CopyField label="Or type this key into the app" value={enrollment.secret} testId="totp-secret" />
        </li>
        <li>
          <p>Enter the 6-digit code the app now shows for Tasklane.</p>
          {formError && <Alert>{formError}</Alert>}
          <OneTimeCodeField error={errorFor('code')} />
        </li>
      </ol>
      <FormActions>
        <SubmitButton pending={confirm.isPending} pendingLabel="Checking…">
          Turn on two-factor authentication
        </SubmitButton>
        <Button onClick={onCancel} disabled={confirm.isPending}>
          Cancel
        </Button>
      </FormActions>
    </Form>
  );
}
