import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { paths } from '../config/paths.ts';
import { currentSession } from '../lib/auth/auth-session.ts';
import { safeRedirectTarget } from '../lib/auth/redirect-target.ts';
import { sessionAssurance } from '../lib/auth/session-assurance.ts';
import { searchValidator } from '../lib/routing/route-params.ts';
import { searchSchema } from '../lib/routing/url-rules.ts';

/** Route guards, run in `beforeLoad`; each throws the router's redirect when the visitor may not stay. */

/** The `?redirect=` of the sign-in screens: where to go once signed in. */
const RedirectSearchSchema = searchSchema({
  redirect: (raw) => (typeof raw === 'string' ? raw : undefined),
});

export interface RedirectSearch {
  redirect?: string | undefined;
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
 * The invite page: a visitor without a session is most likely new, so they sign up (signing in is one
 * link away there) and come back; otherwise as every signed-in screen.
 */
export async function requireSignedInToAccept(location: ParsedLocation): Promise<void> {
  if (!(await currentSession())) throw redirect({ to: paths.signUp, search: { redirect: location.href } });
  await requireSignedIn(location);
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
