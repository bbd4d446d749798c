/** GET and PATCH /v1/me — the signed-in caller's own account. */
import { Hono } from 'hono';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { readIfMatch } from '../http/conditional.ts';
import { readMergePatch } from '../http/merge-patch.ts';
import { UpdateMeBodySchema } from './me.schemas.ts';
import { getMe, updateMe } from './me.service.ts';

export const meRoutes = ({ db, storage, logger }: Pick<AppDeps, 'db' | 'storage' | 'logger'>) => {
  const files = { storage, logger };
  return new Hono<AuthenticatedEnv>()
    .get('/me', async (c) => {
      return c.json(await getMe(db, files, c.var.principal), 200);
    })
    .patch('/me', async (c) => {
      const changes = await readMergePatch(c, UpdateMeBodySchema);
      return c.json(await updateMe(db, files, c.var.principal, changes, readIfMatch(c)), 200);
    });
};
