/** /v1/me/tokens — the signed-in person's personal API tokens. API tokens cannot call these (tokenAccess). */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { AppError } from '../../_shared/errors.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { readJsonBody } from '../http/json-body.ts';
import { NoQueryParameters, readQuery } from '../http/query-params.ts';
import { CreateApiTokenBodySchema } from './tokens.schemas.ts';
import { createApiToken, getApiToken, listApiTokens, revokeApiToken } from './tokens.service.ts';

const TokenId = z.uuid();

/** The `{id}` of the address; anything but a UUID names no token. */
function tokenIdOf(c: Context<AuthenticatedEnv>): string {
  const id = TokenId.safeParse(c.req.param('id'));
  if (!id.success) throw new AppError('not_found', 'You have no API token with this id.');
  return id.data;
}

export const tokensRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/me/tokens', async (c) => {
      readQuery(c, NoQueryParameters);
      const request = await readJsonBody(c, CreateApiTokenBodySchema);
      const token = await createApiToken(db, c.var.principal, request);
      // Relative to the request's own URL (…/v1/me/tokens), so it holds behind any gateway prefix.
      c.header('Location', `tokens/${token.id}`);
      // The body holds the secret: no cache may keep it (nor may an idempotent replay store it).
      c.header('Cache-Control', 'no-store');
      return c.json(token, 201);
    })
    .get('/me/tokens', async (c) => {
      readQuery(c, NoQueryParameters);
      return c.json(await listApiTokens(db, c.var.principal), 200);
    })
    .get('/me/tokens/:id', async (c) => {
      readQuery(c, NoQueryParameters);
      return c.json(await getApiToken(db, c.var.principal, tokenIdOf(c)), 200);
    })
    .delete('/me/tokens/:id', async (c) => {
      readQuery(c, NoQueryParameters);
      return c.json(await revokeApiToken(db, c.var.principal, tokenIdOf(c)), 200);
    });
