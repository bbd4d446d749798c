import { Button } from '../../../components/ui/button.tsx';
import styles from './check-email-panel.module.css';

interface SignInLinkSentProps {
  email: string;
  /** What the link opens, when it is worth saying ("your invitation"). */
  leadsTo?: string | undefined;
  onDifferentAddress: () => void;
}

/** After a sign-in link was mailed: where to look, and a way back to fix a mistyped address. */
export function SignInLinkSent({ email, leadsTo, onDifferentAddress }: SignInLinkSentProps) {
  return (
    <>
      <p>
        We sent a sign-in link to <strong className={styles.address}>{email}</strong>. Open it to sign in
        {leadsTo ? ` and see ${leadsTo}` : ''}; it works once, within the hour.
      </p>
      <p className="muted">No mail after a few minutes? Look in your spam folder, or check the address.</p>
      <Button onClick={onDifferentAddress}>Use a different address</Button>
    </>
  );
}
