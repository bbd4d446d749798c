/**
 * /v1/workspaces/{slug}/imports[/{id}] — moving in from Trello, a CSV or a Tasklane export: a dry run
 * answers the preview, a real one the import.
 */
import { Hono, type Context } from 'hono';
import type { AppDeps, AuthenticatedEnv } from '../app-env.ts';
import { shapedPathParam, slugOf, UuidShape } from '../http/path-params.ts';
import { readImportFile } from './import-file.ts';
import { readImportForm } from './import-form.ts';
import { checkImportAccess, getImport, importNotFound, previewImport, runImport } from './imports.service.ts';

const importIdOf = <E extends AuthenticatedEnv>(c: Context<E>): string =>
  shapedPathParam(c, 'id', UuidShape, importNotFound);

export const importsRoutes = ({ db }: Pick<AppDeps, 'db'>) =>
  new Hono<AuthenticatedEnv>()
    .post('/workspaces/:slug/imports', async (c) => {
      const form = await readImportForm(c);
      await checkImportAccess(db, c.var.principal, slugOf(c));
      const request = { source: form.source, options: form.options, ...readImportFile(form) };
      if (form.dryRun) return c.json(await previewImport(db, c.var.principal, slugOf(c), request), 200);
      const imported = await runImport(db, c.var.principal, slugOf(c), request);
      // Relative to the request's own URL (…/imports), so it holds behind any gateway prefix.
      c.header('Location', `imports/${imported.id}`);
      return c.json(imported, 201);
    })
    .get('/workspaces/:slug/imports/:id', async (c) =>
      c.json(await getImport(db, c.var.principal, slugOf(c), importIdOf(c)), 200),
    );
