import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { paths } from '../config/paths.ts';
import { clearDrafts } from '../features/tasks/drafts/draft-storage.ts';
import { setAccessTokenProvider } from '../lib/api/api-client.ts';
import { currentAccessToken, onAuthEvent } from '../lib/auth/auth-session.ts';
import { userLeft } from '../lib/auth/auth-state.ts';
import { forgetSavedQueries } from '../lib/offline/offline-support.ts';
import type { AuthChangeEvent } from '../lib/supabase-on-demand.ts';

/** Events that change what a guard decides without changing who is signed in. */
const RECHECK_EVENTS: ReadonlySet<AuthChangeEvent> = new Set(['PASSWORD_RECOVERY', 'MFA_CHALLENGE_VERIFIED']);

/**
 * Connects the auth session to the rest of the app: API calls carry its access token, route guards run
 * again when someone signs in or out (in this tab or another), and one person's cached data and drafts
 * never show for the next.
 */
export function connectAuth(router: AnyRouter, queryClient: QueryClient): void {
  setAccessTokenProvider(currentAccessToken);
  onAuthEvent((event, state, previous) => {
    // The first event only reports what the guards have already read, unless they read a stored session
    // (lib/auth/auth-session.ts) that auth-js then did not keep.
    const known = previous.ready || previous.session !== null;
    const userChanged = known && state.session?.user.id !== previous.session?.user.id;
    if (!userChanged && !RECHECK_EVENTS.has(event)) return;
    const left = userLeft(previous, state);
    // Guards first, so the previous person's screens are gone before their data is. Resetting (rather
    // than removing) lets a screen still on view fetch again as the new user instead of hanging.
    const settled =
      event === 'PASSWORD_RECOVERY' ? router.navigate({ to: paths.resetPassword }) : router.invalidate();
    void settled.then(() => {
      if (!left) return;
      // Someone else signed in: what is still on view asks again, as them. Signed out: nothing may ask
      // again (it would ask with no session, and be refused), so the data is dropped without a refetch.
      if (state.session) void queryClient.resetQueries();
      else void queryClient.cancelQueries().then(() => queryClient.removeQueries());
      // Their unsaved texts and the data saved for offline use too: the next person in this browser must
      // not find them.
      clearDrafts(window.localStorage);
      void forgetSavedQueries();
    });
  });
}
