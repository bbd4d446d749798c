import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormPanel } from '../../components/ui/form-panel.tsx';
import { INVITATION_PATH_PREFIX, paths } from '../../config/paths.ts';
import { CheckEmailPanel } from '../../features/auth/components/check-email-panel.tsx';
import { SignUpForm } from '../../features/auth/components/sign-up-form.tsx';
import { safeRedirectTarget } from '../../lib/auth/redirect-target.ts';

const route = getRouteApi('/sign-up');

export function SignUpScreen() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<string | null>(null);
  const returnTo = safeRedirectTarget(search.redirect);
  const invited = search.redirect?.startsWith(INVITATION_PATH_PREFIX) ?? false;

  if (awaitingConfirmation) {
    return (
      <FormPanel title="Check your e-mail">
        <title>Check your e-mail · Tasklane</title>
        <CheckEmailPanel
          email={awaitingConfirmation}
          returnTo={returnTo}
          leadsTo={invited ? 'your invitation' : undefined}
        />
      </FormPanel>
    );
  }
  return (
    <FormPanel
      title="Create your account"
      intro={
        invited
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
        returnTo={returnTo}
        email={search.email}
        onSignedUp={({ signedIn, email }) => {
          if (signedIn) void navigate({ href: returnTo, replace: true });
          else setAwaitingConfirmation(email);
        }}
      />
    </FormPanel>
  );
}
