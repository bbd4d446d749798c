import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form, FormActions } from '../../../components/ui/form.tsx';
import { OneTimeCodeField } from '../../../components/ui/one-time-code-field.tsx';
import { SubmitButton } from '../../../components/ui/submit-button.tsx';
import { describeAuthError, messageFor } from '../../../lib/auth/auth-errors.ts';
import { useAuthState } from '../../../lib/auth/auth-session.ts';
import { validateOneTimeCode } from '../../../lib/forms/credential-rules.ts';
import { formText } from '../../../lib/forms/form-validation.ts';
import { sessionAssurance } from '../../../lib/auth/session-assurance.ts';
import { useRemoveFactor } from '../api/remove-factor.ts';

interface RemoveFactorProps {
  factorId: string;
  onRemoved: () => void;
}

/** Removing an authenticator app, after a confirmation (and a code, if this session has not given one). */
export function RemoveFactor({ factorId, onRemoved }: RemoveFactorProps) {
  const remove = useRemoveFactor();
  const { session } = useAuthState();
  const [confirming, setConfirming] = useState(false);
  const [invalid, setInvalid] = useState<string>();
  const needsCode = !session || sessionAssurance(session).level !== 'aal2';
  const failure = remove.error ? describeAuthError(remove.error) : null;

  if (!confirming) {
    return <Button onClick={() => setConfirming(true)}>Remove</Button>;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let code: string | undefined;
    if (needsCode) {
      const checked = validateOneTimeCode(formText(event.currentTarget, 'code'));
      setInvalid(checked.ok ? undefined : checked.errors.code);
      if (!checked.ok) return;
      code = checked.data.code;
    }
    remove.mutate({ factorId, code }, { onSuccess: onRemoved });
  }

  return (
    <Form className="factor-list__confirm" onSubmit={submit}>
      <p>Remove this authenticator app? Signing in will then ask only for your password.</p>
      {failure && failure.field !== 'code' && <Alert>{failure.message}</Alert>}
      {needsCode && (
        <OneTimeCodeField
          label="6-digit code, to confirm it is you"
          error={invalid ?? messageFor(failure, 'code')}
        />
      )}
      <FormActions>
        <SubmitButton variant="danger" pending={remove.isPending} pendingLabel="Removing…">
          Remove authenticator app
        </SubmitButton>
        <Button onClick={() => setConfirming(false)} disabled={remove.isPending}>
          Keep it
        </Button>
      </FormActions>
    </Form>
  );
}
