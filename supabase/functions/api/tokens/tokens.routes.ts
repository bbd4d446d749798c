/** /v1/me/tokens — the signed-in person's personal API tokens. API tokens cannot call these (tokenAccess). */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CreatedAtIdKey } from '../../_shared/pages.ts';
import { AppError } from '../../_shared/errors.ts';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { jsonWithETag, readIfMatch } from '../http/conditional.ts';
import { readJsonBody } from '../http/json-body.ts';
import { listResponse, pageParameters } from '../http/pagination.ts';
import { shapedPathParam, UuidShape } from '../http/path-params.ts';
import { queryOf } from '../http/query-params.ts';
import { CreateApiTokenBodySchema } from './tokens.schemas.ts';
import { createApiToken, getApiToken, listApiTokens, revokeApiToken } from './tokens.service.ts';

/** The `{id}` of the address; anything but a UUID names no token. */
function tokenIdOf(c: Context<AuthenticatedEnv>): string {
  return shapedPathParam(
    c,
    'id',
    UuidShape,
    () => new AppError('not_found', 'You have no API token with this id.'),
  );
}

const ListApiTokensQuery = z.object(pageParameters(CreatedAtIdKey));

export const tokensRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/me/tokens', async (c) => {
      const request = await readJsonBody(c, CreateApiTokenBodySchema);
      const token = await createApiToken(db, c.var.principal, request);
      // Relative to the request's own URL (…/v1/me/tokens), so it holds behind any gateway prefix.
      c.header('Location', `tokens/${token.id}`);
      // The body holds the secret: no cache may keep it (nor may an idempotent replay store it).
      c.header('Cache-Control', 'no-store');
      return jsonWithETag(c, token, 201);
    })
    .get('/me/tokens', queryOf(ListApiTokensQuery), async (c) => {
      const { limit, cursor } = c.var.query;
      return listResponse(c, await listApiTokens(db, c.var.principal, { limit, cursor }));
    })
    .get('/me/tokens/:id', async (c) => {
      return jsonWithETag(c, await getApiToken(db, c.var.principal, tokenIdOf(c)));
    })
    .delete('/me/tokens/:id', async (c) => {
      return jsonWithETag(c, await revokeApiToken(db, c.var.principal, tokenIdOf(c), readIfMatch(c)));
    });
