import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuthContext } from './context.ts';
import { validationFailed } from './errors.ts';
import { mailLinkToAddress } from './mail-link-to-address.ts';
import { ok, type Reply } from './reply.ts';
import { readJsonBody } from './request-body.ts';

const ResendBody = z.object({
  type: z.string().optional(),
  email: z.string().optional(),
  code_challenge: z.string().nullish(),
  code_challenge_method: z.string().nullish(),
});

/**
 * POST /resend?redirect_to= (supabase-js `auth.resend({ type: 'signup' })`): mails an unconfirmed user's
 * confirmation link again, at most once per `max_frequency` (429 `over_email_send_rate_limit`). Answers `{}`
 * for an unknown or already confirmed address too, so that it tells nobody which addresses have accounts.
 * Only `signup` is served: the app sends no e-mail-change or SMS messages.
 */
export async function resend(context: AuthContext, req: IncomingMessage, url: URL): Promise<Reply> {
  const body = await readJsonBody(req, ResendBody);
  if (body.type !== 'signup') {
    throw validationFailed('The stand-in resends only signup confirmations (type "signup")');
  }
  if (!body.email) throw validationFailed('Resending a confirmation requires an email');
  await mailLinkToAddress(
    context,
    { ...body, email: body.email, redirectTo: url.searchParams.get('redirect_to') },
    {
      type: 'signup',
      providerType: 'email',
      authenticationMethod: 'email/signup',
      isOwed: (user) => !user.email_confirmed_at,
    },
  );
  return ok({});
}
