/** /v1/workspaces/{slug}/export — the whole workspace as one JSON document, streamed as a download. */
import { Hono, type Context } from 'hono';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { apiUrlOf } from '../http/api-url.ts';
import { checkExportAccess, exportWorkspace } from './export.service.ts';

/** The headers of an export; the slug is safe in a quoted file name (a-z, 0-9 and `-` only). */
function setExportHeaders(c: Context<AuthenticatedEnv>, slug: string): void {
  c.header('Content-Type', 'application/json; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="${slug}-export.json"`);
  c.header('Cache-Control', 'no-store');
}

export const exportRoutes = ({
  db,
  logger,
  exportDeadlineMs,
  apiUrl,
}: Pick<AppDeps, 'db' | 'logger' | 'exportDeadlineMs' | 'apiUrl'>) =>
  new Hono<AuthenticatedEnv>().get('/workspaces/:slug/export', async (c) => {
    const slug = c.req.param('slug');
    // Hono answers HEAD with the GET route and drops the body unread: check access, but export nothing.
    if (c.req.method === 'HEAD') {
      setExportHeaders(c, (await checkExportAccess(db, c.var.principal, slug)).slug);
      return c.body(null, 200);
    }
    const exported = await exportWorkspace(
      {
        db,
        logger,
        deadlineMs: exportDeadlineMs,
        apiUrl: apiUrlOf(c, apiUrl),
        prespent: c.var.exportBudget,
      },
      c.var.principal,
      slug,
      c.var.requestId,
    );
    setExportHeaders(c, exported.slug);
    return c.body(exported.body, 200);
  });
