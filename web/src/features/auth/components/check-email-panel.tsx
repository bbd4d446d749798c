import { useEffect, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useResendConfirmation } from '../api/resend-confirmation.ts';
import { RESEND_INTERVAL_SECONDS, secondsToWaitAfter } from '../resend-wait.ts';
import styles from './check-email-panel.module.css';

interface CheckEmailPanelProps {
  email: string;
  /** The path the confirmation link leads back to, as the sign-up asked. */
  returnTo: string;
  /** What that path is, when it is worth saying ("your invitation"). */
  leadsTo?: string | undefined;
}

/** After a sign-up that must be confirmed: the address, and "Resend" once a minute. */
export function CheckEmailPanel({ email, returnTo, leadsTo }: CheckEmailPanelProps) {
  const resend = useResendConfirmation();
  // The sign-up has just sent the first mail.
  const [secondsLeft, waitFor] = useCountdown(RESEND_INTERVAL_SECONDS);
  const [resent, setResent] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const send = () => {
    setRefusal(null);
    resend.mutate(
      { email, returnTo },
      {
        onSuccess: () => {
          setResent(true);
          waitFor(RESEND_INTERVAL_SECONDS);
        },
        onError: (error) => {
          const seconds = secondsToWaitAfter(error);
          if (seconds === null) {
            setRefusal(`The mail could not be sent: ${error.message}`);
            return;
          }
          waitFor(seconds);
          setRefusal(`Too many mails in a short time. You can ask for another in ${seconds} seconds.`);
        },
      },
    );
  };

  return (
    <>
      <p>
        We sent a link to <strong className={styles.address}>{email}</strong>. Open it to confirm your
        address; it signs you in
        {leadsTo ? ` and opens ${leadsTo}` : ''}.
      </p>
      <p>No mail after a few minutes? Look in your spam folder, or send it again.</p>
      {resent && <Notice>We sent another link to {email}.</Notice>}
      {refusal && <Alert>{refusal}</Alert>}
      <Button onClick={send} disabled={resend.isPending || secondsLeft > 0}>
        {resend.isPending ? 'Sending…' : secondsLeft > 0 ? `Resend in ${secondsLeft} s` : 'Resend'}
      </Button>
    </>
  );
}

/** Whole seconds left of a wait, ticking once a second, and a way to start a new wait. */
function useCountdown(initialSeconds: number): [number, (seconds: number) => void] {
  const [until, setUntil] = useState(() => Date.now() + initialSeconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  const waitFor = (seconds: number) => {
    const current = Date.now();
    setNow(current);
    setUntil(current + seconds * 1000);
  };
  return [Math.max(0, Math.ceil((until - now) / 1000)), waitFor];
}
