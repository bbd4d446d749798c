/**
 * /v1/workspaces/{slug}/invitations[/{id}] (owners and admins) and /v1/invitations/{token}/accept (the
 * invited person). Creating queues the invitation e-mail with the invitation and sends it once that is
 * committed (docs/decisions/0014); a mail that cannot be sent is logged, queued for a later try, and does
 * not fail the request, since the answer's `accept_url` can be shared by hand. GET /v1/invitations/{token}
 * previews one for its page, also to someone signed out (app.ts, OPTIONAL_CREDENTIAL_ROUTES).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { unsentMailer } from '../../_shared/mail/unsent-mailer.ts';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import type { AppDeps, AppEnv, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { deliverQueuedMail } from '../mail-outbox/mail-outbox.service.ts';
import { afterCommit } from '../middleware/idempotency.ts';
import { isWellFormedInvitationToken } from './invitation-token.ts';
import { CreateInvitationBodySchema, InvitationStatusSchema } from './invitations.schemas.ts';
import {
  acceptInvitation,
  createInvitation,
  getInvitation,
  invitationIdNotFound,
  listInvitations,
  previewInvitation,
  revokeInvitation,
} from './invitations.service.ts';
import { invitationNotFound } from './invitation-refusals.ts';

const ListInvitationsQuery = z.object({
  ...pageParameters(CreatedAtIdKey),
  status: InvitationStatusSchema.optional(),
});

/** The `{id}` of the address; anything but a UUID names no invitation. */
function invitationIdOf(c: Context<AuthenticatedEnv>): string {
  return shapedPathParam(c, 'id', UuidShape, invitationIdNotFound);
}

/** The `{token}` of the address; anything but the shape of a token names no invitation. */
function tokenOf(token: string | undefined): string {
  if (token === undefined || !isWellFormedInvitationToken(token)) throw invitationNotFound();
  return token;
}

export const invitationsRoutes = ({
  db,
  logger,
  mailer = unsentMailer(logger),
  appUrl,
}: Pick<AppDeps, 'db' | 'logger' | 'mailer' | 'appUrl'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/workspaces/:slug/invitations', async (c) => {
      const request = await readJsonBody(c, CreateInvitationBodySchema);
      if (appUrl === undefined)
        throw new Error('AppDeps.appUrl is not set: invitations cannot link anywhere');
      const created = await createInvitation(db, c.var.principal, c.req.param('slug'), request, appUrl);
      await afterCommit(c, () => deliverQueuedMail({ db, mailer, logger }, created.mail, c.var.requestId));
      // Relative to the request's own URL (…/workspaces/{slug}/invitations), so it holds behind any prefix.
      c.header('Location', `invitations/${created.invitation.id}`);
      // The body holds the secret link: no cache may keep it (nor may an idempotent replay store it).
      c.header('Cache-Control', 'no-store');
      return jsonWithETag(c, created.invitation, 201);
    })
    .get('/workspaces/:slug/invitations', queryOf(ListInvitationsQuery), async (c) => {
      const { limit, cursor, status } = c.var.query;
      const page = await listInvitations(db, c.var.principal, c.req.param('slug'), status, { limit, cursor });
      return listResponse(c, page);
    })
    .get('/workspaces/:slug/invitations/:id', async (c) => {
      return jsonWithETag(
        c,
        await getInvitation(db, c.var.principal, c.req.param('slug'), invitationIdOf(c)),
      );
    })
    .delete('/workspaces/:slug/invitations/:id', async (c) => {
      const expected = readIfMatch(c);
      const invitation = await revokeInvitation(
        db,
        c.var.principal,
        c.req.param('slug'),
        invitationIdOf(c),
        expected,
      );
      return jsonWithETag(c, invitation);
    })
    .post('/invitations/:token/accept', async (c) => {
      return c.json(await acceptInvitation(db, c.var.principal, tokenOf(c.req.param('token'))), 200);
    });

/** The invitation's page, for whoever holds its link: signed in or not (`c.var.principal` may be unset). */
export const invitationPreviewRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AppEnv>().get('/invitations/:token', async (c) => {
    return c.json(await previewInvitation(db, c.var.principal, tokenOf(c.req.param('token'))), 200);
  });
