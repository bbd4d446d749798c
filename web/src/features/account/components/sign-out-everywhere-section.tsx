import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PanelSection } from '../../../components/ui/panel-section.tsx';
import { describeAuthError } from '../../../lib/auth/auth-errors.ts';
import { showNotice } from '../../../lib/flash-notice.ts';
import { useSignOutEverywhere } from '../api/sign-out-everywhere.ts';

export function SignOutEverywhereSection() {
  const signOut = useSignOutEverywhere();

  function signOutEverywhere() {
    // The route guard then sends this screen to sign-in.
    signOut.mutate(undefined, { onSuccess: () => showNotice('You were signed out on every device.') });
  }

  return (
    <PanelSection title="Sessions">
      <p className="muted">
        Lost a device, or signed in on a shared computer? Sign out everywhere, this browser included.
      </p>
      {signOut.error && <Alert>{describeAuthError(signOut.error).message}</Alert>}
      <Button onClick={signOutEverywhere} disabled={signOut.isPending}>
        {signOut.isPending ? 'Signing out…' : 'Sign out everywhere'}
      </Button>
    </PanelSection>
  );
}
