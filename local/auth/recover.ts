import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AuthContext } from './context.ts';
import { validationFailed } from './errors.ts';
import { mailLinkToAddress } from './mail-link-to-address.ts';
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
  await mailLinkToAddress(
    context,
    { ...body, email: body.email, redirectTo: url.searchParams.get('redirect_to') },
    { type: 'recovery', providerType: 'recovery', authenticationMethod: 'recovery', isOwed: () => true },
  );
  return ok({});
}
