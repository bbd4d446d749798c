/**
 * The export's budget (EXPORTS_PER_WORKSPACE_PER_HOUR), spent in the round trip that checks the
 * credential (docs/decisions/0016), so that the export need not wait for it after its snapshot: only
 * when the database says the credential's holder is an owner or admin of the workspace the address
 * names. The export takes the count over once it has judged the caller may export; any other answer
 * (401, 403 for MFA or an API token, 404, 429) hands it back after the answer, so a refused attempt
 * does not spend it.
 */
import { runAfterResponse } from '../../_shared/after-response.ts';
import type { StatementBesideCheck } from '../../_shared/auth/credential-verifier.ts';
import type { Database } from '../../_shared/db.ts';
import { describeError } from '../../_shared/describe-error.ts';
import type { Logger } from '../../_shared/logger.ts';
import { uncountRequest } from '../rate-limits/rate-limits.queries.ts';
import { WorkspaceSlugSchema } from '../workspaces/workspaces.schemas.ts';
import { countExportOfHolder, exportBucketOf, type ExportCountRow } from './export.queries.ts';

/** The window of the export budget. */
export const EXPORT_WINDOW_SECONDS = 60 * 60;

/** The route whose budget is spent alongside; HEAD, answered by the same route, exports nothing. */
const EXPORT_ROUTE = 'GET /api/v1/workspaces/:slug/export';

export interface PrespentExportBudget extends StatementBesideCheck {
  /** The count, if it was spent for the workspace `workspaceId`; the export answers for it from now on. */
  takeOver(workspaceId: string): ExportCountRow | undefined;
}

/** The budget spent alongside for a GET of `route` (routeOf's name), the export's; none for others. */
export function exportBudgetOf(
  { db, logger }: { db: Database; logger: Logger },
  method: string,
  route: string | undefined,
  path: string,
): PrespentExportBudget | undefined {
  if (method !== 'GET' || route !== EXPORT_ROUTE) return undefined;
  const slug = path.split('/').at(-2) ?? '';
  // A slug that names no workspace (the export answers it 404) is never sent.
  if (!WorkspaceSlugSchema.safeParse(slug).success) return undefined;
  let counted: ExportCountRow | undefined;
  let takenOver = false;
  return {
    statement: async (sql, holder) => {
      counted = await countExportOfHolder(sql, holder, slug, EXPORT_WINDOW_SECONDS);
    },
    takeOver: (workspaceId) => {
      if (counted?.workspace_id !== workspaceId) return undefined;
      takenOver = true;
      return counted;
    },
    undoUnlessTakenOver: () => {
      const spent = counted;
      if (takenOver || spent === undefined) return Promise.resolve();
      void runAfterResponse(
        () =>
          db.serviceStatements((sql) =>
            uncountRequest(sql, exportBucketOf(spent.workspace_id), spent.window_started_at),
          ),
        (error) => logger.warn('a refused export could not hand its budget back', describeError(error)),
      );
      return Promise.resolve();
    },
  };
}
