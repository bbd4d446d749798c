import { FormPanel } from '../../../components/ui/form-panel.tsx';
import { TotpStep } from './totp-step.tsx';

interface SecondFactorPanelProps {
  onVerified: () => void;
  /** Why the code is asked for, when it is not simply to finish signing in. */
  intro?: string;
  submitLabel?: string;
}

/** The whole "Enter your code" screen: the TOTP step for a session that owes its second factor. */
export function SecondFactorPanel({
  onVerified,
  intro = 'Your account is protected with an authenticator app.',
  submitLabel,
}: SecondFactorPanelProps) {
  return (
    <FormPanel title="Enter your code" intro={intro}>
      <title>Enter your code · Tasklane</title>
      <TotpStep onVerified={onVerified} submitLabel={submitLabel} />
    </FormPanel>
  );
}
