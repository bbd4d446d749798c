import type { AuthContext } from './context.ts';
import { sendEmailLink } from './email-links.ts';
import { lockUserByEmail } from './email-tokens.queries.ts';
import { normalizeEmail } from './emails.ts';
import { insertFlowState, type FlowMethod } from './flow-state.queries.ts';
import { pkceChallenge } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import type { UserRow } from './users.queries.ts';

/** What /recover and /resend are asked: the address, the client's PKCE challenge, where the link leads. */
export interface LinkAsked {
  email: string;
  code_challenge?: string | null | undefined;
  code_challenge_method?: string | null | undefined;
  redirectTo: string | null;
}

/** Which link to mail, and to whom of those the address may belong. */
export interface LinkKind {
  type: 'signup' | 'recovery';
  providerType: string;
  authenticationMethod: FlowMethod;
  /** Whether this user is owed the link (a confirmation, say, only while unconfirmed). */
  isOwed: (user: UserRow) => boolean;
}

/**
 * The part /recover and /resend share: lock the address's user, start a PKCE flow when the client asked
 * for one, and mail the link. Nobody owed it, or no user at all, is not an error: the caller answers the
 * same either way, so that it tells nobody which addresses have accounts.
 */
export async function mailLinkToAddress(
  context: AuthContext,
  asked: LinkAsked,
  kind: LinkKind,
): Promise<void> {
  const email = normalizeEmail(asked.email);
  const pkce = pkceChallenge(asked.code_challenge, asked.code_challenge_method);
  const redirectTo = redirectTarget(context.redirects, asked.redirectTo);
  await context.database.transaction(async (db) => {
    const user = await lockUserByEmail(db, email);
    if (!user?.email || !kind.isOwed(user)) return;
    if (pkce) {
      await insertFlowState(db, {
        userId: user.id,
        challenge: pkce.challenge,
        method: pkce.method,
        providerType: kind.providerType,
        authenticationMethod: kind.authenticationMethod,
      });
    }
    await sendEmailLink(
      context,
      db,
      { ...user, email: user.email },
      { type: kind.type, flow: pkce ? 'pkce' : 'implicit', redirectTo },
    );
  });
}
