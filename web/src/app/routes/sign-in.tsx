import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { INVITATION_PATH_PREFIX, paths } from '../../config/paths.ts';
import { SignInForm } from '../../features/auth/components/sign-in-form.tsx';
import { SecondFactorPanel } from '../../features/auth/components/second-factor-panel.tsx';
import { useAuthState } from '../../lib/auth/auth-session.ts';
import { safeRedirectTarget } from '../../lib/auth/redirect-target.ts';
import { sessionAssurance } from '../../lib/auth/session-assurance.ts';

const route = getRouteApi('/sign-in');

export function SignInScreen() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const { session } = useAuthState();
  const goOn = () => void navigate({ href: safeRedirectTarget(search.redirect), replace: true });

  // After the password, an account with an authenticator app owes its code before going on.
  if (session && sessionAssurance(session).needsSecondFactor) {
    return <SecondFactorPanel onVerified={goOn} />;
  }
  return (
    <FormPanel
      title="Sign in to Tasklane"
      intro={
        search.redirect?.startsWith(INVITATION_PATH_PREFIX)
          ? 'Sign in with the invited address to see and accept your invitation.'
          : undefined
      }
      footer={
        <>
          <Link to={paths.forgotPassword}>Forgot your password?</Link>
          <span>
            No account yet?{' '}
            <Link to={paths.signUp} search={search}>
              Sign up
            </Link>
          </span>
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
    </FormPanel>
  );
}
