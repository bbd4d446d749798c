/** /v1/me/avatar[/complete] — the caller's avatar picture. */
import { Hono } from 'hono';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { uploadSweeper } from '../files/upload-sweep.ts';
import { readJsonBody } from '../http/json-body.ts';
import { CreateAvatarUploadBodySchema } from './avatars.schemas.ts';
import { completeAvatar, createAvatarUpload, deleteAvatar } from './avatars.service.ts';

export const avatarsRoutes = ({
  db,
  storage,
  logger,
  sweepUploads = true,
}: Pick<AppDeps, 'db' | 'storage' | 'logger' | 'sweepUploads'>) => {
  const files = { storage, logger };
  const sweep = sweepUploads ? uploadSweeper(db, files) : () => Promise.resolve();
  return new Hono<AuthenticatedEnv>()
    .post('/me/avatar', async (c) => {
      const request = await readJsonBody(c, CreateAvatarUploadBodySchema);
      const created = await createAvatarUpload(db, files, c.var.principal, request);
      await sweep();
      return c.json(created, 201);
    })
    .post('/me/avatar/complete', async (c) => {
      return c.json(await completeAvatar(db, files, c.var.principal), 200);
    })
    .delete('/me/avatar', async (c) => {
      await deleteAvatar(db, files, c.var.principal);
      return c.body(null, 204);
    });
};
