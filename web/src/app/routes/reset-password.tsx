import { Link, useNavigate } from '@tanstack/react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { paths } from '../../config/paths.ts';
import { NewPasswordForm } from '../../features/auth/components/new-password-form.tsx';
import { SecondFactorPanel } from '../../features/auth/components/second-factor-panel.tsx';
import { describeAuthError } from '../../lib/auth/auth-errors.ts';
import { useAuthState, useUrlSessionError } from '../../lib/auth/auth-session.ts';
import { showNotice } from '../../lib/flash-notice.ts';
import { sessionAssurance } from '../../lib/auth/session-assurance.ts';
import { RoutePending } from './route-pending.tsx';

/** Where a recovery link lands: signed in by the link, the person chooses a new password. */
export function ResetPasswordScreen() {
  const { ready, session, recovery } = useAuthState();
  const navigate = useNavigate();

  if (!ready) return <RoutePending />;
  const assurance = session ? sessionAssurance(session) : null;
  if (!session || !assurance || !(recovery || assurance.fromRecovery)) {
    return <NoRecoverySession signedIn={session !== null} />;
  }
  // Supabase Auth lets an account with an authenticator app change its password only at aal2.
  if (assurance.needsSecondFactor) {
    return (
      <SecondFactorPanel
        intro="Your account is protected with an authenticator app. Enter a code to choose a new password."
        submitLabel="Continue"
        // Verifying updates the session, and this screen then shows the password form.
        onVerified={() => undefined}
      />
    );
  }
  return (
    <FormPanel title="Choose a new password">
      <title>Choose a new password · Tasklane</title>
      <NewPasswordForm
        email={session.user.email ?? ''}
        onChanged={() => {
          showNotice('Your password was changed. You are signed in.');
          void navigate({ to: paths.home, replace: true });
        }}
      />
    </FormPanel>
  );
}

function NoRecoverySession({ signedIn }: { signedIn: boolean }) {
  const linkError = useUrlSessionError();
  const message = linkError
    ? describeAuthError(linkError).message
    : 'To choose a new password, open the link in the most recent e-mail we sent you. Each link works once.';
  return (
    <FormPanel
      title="This link cannot be used"
      footer={
        <>
          <Link to={paths.forgotPassword}>Send me a new link</Link>
          {signedIn && <Link to={paths.account}>Change your password from your account</Link>}
        </>
      }
    >
      <title>Reset your password · Tasklane</title>
      <Alert>{message}</Alert>
    </FormPanel>
  );
}
