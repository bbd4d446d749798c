import { Link } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuthState } from '../../../lib/auth/auth-session.ts';
import { useSignOut } from '../api/sign-out.ts';

/** The header's account links: Account and Sign out when signed in, Sign in otherwise. */
export function SessionNav() {
  const { ready, session } = useAuthState();
  const signOut = useSignOut();

  if (!ready) return null;
  if (!session) {
    return (
      <nav className="session-nav" aria-label="Account">
        <Link to={paths.signIn} className="session-nav__link">
          Sign in
        </Link>
      </nav>
    );
  }
  return (
    <nav className="session-nav" aria-label="Account">
      <Link to={paths.account} className="session-nav__link" title={session.user.email}>
        Account
      </Link>
      {/* No navigation here: the route guards react to the sign-out and send protected screens away. */}
      <Button onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        {signOut.isPending ? 'Signing out…' : 'Sign out'}
      </Button>
    </nav>
  );
}
