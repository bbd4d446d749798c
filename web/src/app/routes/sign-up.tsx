import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { paths } from '../../config/paths.ts';
import { SignUpForm } from '../../features/auth/components/sign-up-form.tsx';
import { safeRedirectTarget } from '../../lib/auth/redirect-target.ts';
import { INVITATION_INTRO_PATH } from '../invitation-intro.ts';

const route = getRouteApi('/sign-up');

export function SignUpScreen() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const [awaitingConfirmation, setAwaitingConfirmation] = useState(false);

  if (awaitingConfirmation) {
    return (
      <FormPanel title="Check your e-mail">
        <title>Check your e-mail · Tasklane</title>
        <Notice>We sent you a link to confirm your address. Open it to finish signing up.</Notice>
      </FormPanel>
    );
  }
  return (
    <FormPanel
      title="Create your account"
      intro={
        search.redirect?.startsWith(INVITATION_INTRO_PATH)
          ? 'Create an account with the invited address to see and accept your invitation. Have one already? Sign in instead.'
          : undefined
      }
      footer={
        <span>
          Already have an account?{' '}
          <Link to={paths.signIn} search={search}>
            Sign in
          </Link>
        </span>
      }
    >
      <title>Sign up · Tasklane</title>
      <SignUpForm
        returnTo={safeRedirectTarget(search.redirect)}
        onSignedUp={({ signedIn }) => {
          if (signedIn) void navigate({ href: safeRedirectTarget(search.redirect), replace: true });
          else setAwaitingConfirmation(true);
        }}
      />
    </FormPanel>
  );
}
