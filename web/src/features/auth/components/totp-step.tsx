import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { OneTimeCodeField } from '../../../components/ui/one-time-code-field.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth-errors.ts';
import { validateOneTimeCode } from '../../../lib/credential-rules.ts';
import { formText } from '../../../lib/form-validation.ts';
import { useVerifyTotp } from '../api/verify-totp.ts';

interface TotpStepProps {
  submitLabel?: string;
  onVerified: () => void;
}

/** The second sign-in step: a code from the authenticator app raises the session to aal2. */
export function TotpStep({ submitLabel = 'Verify', onVerified }: TotpStepProps) {
  const verify = useVerifyTotp();
  const [invalid, setInvalid] = useState<string>();
  const failure = verify.error ? describeAuthError(verify.error) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateOneTimeCode(formText(event.currentTarget, 'code'));
    setInvalid(checked.ok ? undefined : checked.errors.code);
    if (!checked.ok) {
      verify.reset();
      return;
    }
    verify.mutate(checked.data.code, { onSuccess: onVerified });
  }

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure && failure.field !== 'code' && <Alert>{failure.message}</Alert>}
      <OneTimeCodeField
        autoFocus
        hint="Open your authenticator app and enter the code it shows for Tasklane."
        error={invalid ?? messageFor(failure, 'code')}
      />
      <Button type="submit" variant="primary" disabled={verify.isPending}>
        {verify.isPending ? 'Checking…' : submitLabel}
      </Button>
    </form>
  );
}
