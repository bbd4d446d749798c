import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuthContext } from './context.ts';
import { sendEmailLink } from './email-links.ts';
import { lockUserByEmail } from './email-tokens.queries.ts';
import { normalizeEmail } from './emails.ts';
import { validationFailed } from './errors.ts';
import { insertFlowState } from './flow-state.queries.ts';
import { pkceChallenge } from './pkce.ts';
import { redirectTarget } from './redirects.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';

const RecoverBody = z.object({
  email: z.string().optional(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

/**
 * POST /recover?redirect_to=: mails a recovery link. Answers `{}` whether or not the address
 * belongs to someone, so that it tells nobody which addresses have accounts.
 */
export async function recover(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const body = await readJsonBody(req, RecoverBody);
  if (!body.email) throw validationFailed('Password recovery requires an email');
  const email = normalizeEmail(body.email);
  const pkce = pkceChallenge(body.code_challenge, body.code_challenge_method);
  const redirectTo = redirectTarget(context.redirects, url.searchParams.get('redirect_to'));
  await context.database.transaction(async (db) => {
    const user = await lockUserByEmail(db, email);
    if (!user?.email) return;
    if (pkce) {
      await insertFlowState(db, {
        userId: user.id,
        challenge: pkce.challenge,
        method: pkce.method,
        providerType: 'recovery',
        authenticationMethod: 'recovery',
      });
    }
    const recipient = { ...user, email: user.email };
    await sendEmailLink(context, db, recipient, {
      type: 'recovery',
      flow: pkce ? 'pkce' : 'implicit',
      redirectTo,
    });
  });
  return ok({});
}
