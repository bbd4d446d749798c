import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { paths } from '../config/paths.ts';
import { currentSession } from '../lib/auth/auth-session.ts';
import { safeRedirectTarget } from '../lib/auth/redirect-target.ts';
import { sessionAssurance } from '../lib/auth/session-assurance.ts';
import { searchValidator } from '../lib/routing/route-params.ts';
import { searchSchema } from '../lib/routing/url-rules.ts';

/** Route guards, run in `beforeLoad`; each throws the router's redirect when the visitor may not stay. */

/**
 * The `?redirect=` of the sign-in screens: where to go once signed in; and `?email=`, the address to
 * fill in (an invitation's, passed on by its page).
 */
const RedirectSearchSchema = searchSchema({
  redirect: (raw) => (typeof raw === 'string' ? raw : undefined),
  email: (raw) => (typeof raw === 'string' ? raw : undefined),
});

export interface RedirectSearch {
  redirect?: string | undefined;
  email?: string | undefined;
}

export const parseRedirectSearch = searchValidator(RedirectSearchSchema);

/** Screens behind sign-in: no session → sign in; a password-only session of an MFA user → the code step. */
export async function requireSignedIn(location: ParsedLocation): Promise<void> {
  const session = await currentSession();
  const comeBack = location.href === paths.home ? {} : { redirect: location.href };
  if (!session) throw redirect({ to: paths.signIn, search: comeBack });
  if (sessionAssurance(session).needsSecondFactor) throw redirect({ to: paths.mfa, search: comeBack });
}

/**
 * The invite page: anyone holding the link may read it, signed out too (it offers signing up); someone
 * signed in is held as on every signed-in screen (a second factor still owed comes first).
 */
export async function requireSecondFactorIfSignedIn(location: ParsedLocation): Promise<void> {
  if (await currentSession()) await requireSignedIn(location);
}

/** Sign-in and sign-up: someone fully signed in goes straight on. */
export async function redirectIfSignedIn(search: RedirectSearch): Promise<void> {
  const session = await currentSession();
  if (session && !sessionAssurance(session).needsSecondFactor) {
    throw redirect({ href: safeRedirectTarget(search.redirect), replace: true });
  }
}

/** The code step: only for a session that still owes its second factor. */
export async function requirePendingSecondFactor(search: RedirectSearch): Promise<void> {
  const session = await currentSession();
  if (!session) throw redirect({ to: paths.signIn, search });
  if (!sessionAssurance(session).needsSecondFactor) {
    throw redirect({ href: safeRedirectTarget(search.redirect), replace: true });
  }
}
