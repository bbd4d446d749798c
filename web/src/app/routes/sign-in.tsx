import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { INVITATION_PATH_PREFIX, paths } from '../../config/paths.ts';
import { SignInForm } from '../../features/auth/components/sign-in-form.tsx';
import { SignInLinkForm } from '../../features/auth/components/sign-in-link-form.tsx';
import { SignInLinkSent } from '../../features/auth/components/sign-in-link-sent.tsx';
import { SecondFactorPanel } from '../../features/auth/components/second-factor-panel.tsx';
import { useAuthState } from '../../lib/auth/auth-session.ts';
import { safeRedirectTarget } from '../../lib/auth/redirect-target.ts';
import { sessionAssurance } from '../../lib/auth/session-assurance.ts';
import styles from './sign-in.module.css';

const route = getRouteApi('/sign-in');

/** Password, or a link by e-mail; once the link is sent, where to find it. */
type Way = { kind: 'password' } | { kind: 'link' } | { kind: 'link-sent'; email: string };

export function SignInScreen() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const { session } = useAuthState();
  const [way, setWay] = useState<Way>({ kind: 'password' });
  const returnTo = safeRedirectTarget(search.redirect);
  const invited = search.redirect?.startsWith(INVITATION_PATH_PREFIX) ?? false;
  const goOn = () => void navigate({ href: returnTo, replace: true });

  // After the password (or the link), an account with an authenticator app owes its code before going on.
  if (session && sessionAssurance(session).needsSecondFactor) {
    return <SecondFactorPanel onVerified={goOn} />;
  }
  if (way.kind === 'link-sent') {
    return (
      <FormPanel title="Check your inbox">
        <title>Check your inbox · Tasklane</title>
        <SignInLinkSent
          email={way.email}
          leadsTo={invited ? 'your invitation' : undefined}
          onDifferentAddress={() => setWay({ kind: 'link' })}
        />
      </FormPanel>
    );
  }
  const signUpLink = (
    <span>
      No account yet?{' '}
      <Link to={paths.signUp} search={search}>
        Sign up
      </Link>
    </span>
  );
  if (way.kind === 'link') {
    return (
      <FormPanel
        title="Sign in with a link"
        intro="We e-mail you a link that signs you in, no password needed."
        footer={
          <>
            <Button variant="link" className={styles.switch} onClick={() => setWay({ kind: 'password' })}>
              Use a password instead
            </Button>
            {signUpLink}
          </>
        }
      >
        <title>Sign in with a link · Tasklane</title>
        <SignInLinkForm
          returnTo={returnTo}
          email={search.email}
          onSent={(email) => setWay({ kind: 'link-sent', email })}
        />
      </FormPanel>
    );
  }
  return (
    <FormPanel
      title="Sign in to Tasklane"
      intro={invited ? 'Sign in with the invited address to see and accept your invitation.' : undefined}
      footer={
        <>
          <Link to={paths.forgotPassword}>Forgot your password?</Link>
          {signUpLink}
        </>
      }
    >
      <title>Sign in · Tasklane</title>
      <SignInForm
        email={search.email}
        onSignedIn={({ needsSecondFactor }) => {
          // Otherwise this screen re-renders with the code step, since the session now owes a code.
          if (!needsSecondFactor) goOn();
        }}
      />
      <div className={styles.or} aria-hidden="true">
        or
      </div>
      <Button onClick={() => setWay({ kind: 'link' })}>E-mail me a link</Button>
    </FormPanel>
  );
}
