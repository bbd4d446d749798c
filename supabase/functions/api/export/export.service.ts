/**
 * The export (docs/product.md#api-conventions): the whole workspace as one JSON document
 * (export-document.ts), streamed from one snapshot (export.queries.ts) without ever being held whole. Owners
 * and admins only. An export reads everything, so each workspace may be exported
 * EXPORTS_PER_WORKSPACE_PER_HOUR times an hour, counted in Postgres so that every instance of the function
 * shares the budget, and counted only once the caller may export: a member's refused attempts do not spend
 * it.
 *
 * The status is settled before the first byte: access, budget, the snapshot and its first batch. A
 * failure after that cannot change it: the body stops short, so the document does not parse (a reader
 * notices, rather than importing half a workspace), and the failure is logged with the request id.
 */
import { asLastStatement, type Database, type Sql, type StatementBounds } from '../../_shared/db.ts';
import { describeError } from '../../_shared/describe-error.ts';
import { AppError } from '../../_shared/errors.ts';
import {
  EXPORT_DEADLINE_SECONDS,
  EXPORTS_PER_WORKSPACE_PER_HOUR,
  IDLE_IN_TRANSACTION_TIMEOUT_SECONDS,
  STATEMENT_TIMEOUT_SECONDS,
} from '../../_shared/limits.ts';
import type { Logger } from '../../_shared/logger.ts';
import type { Principal } from '../../_shared/principal.ts';
import { selectWorkspaceAccess, type WorkspaceAccessRow } from '../workspaces/workspace-access.queries.ts';
import {
  admitToWorkspace,
  enterWorkspace,
  requireRole,
  requireWorkspaceSlug,
  workspaceNotFound,
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import { selectWorkspace, type WorkspaceRow } from '../workspaces/workspaces.queries.ts';
import { toWorkspace } from '../workspaces/workspaces.service.ts';
import { EXPORT_WINDOW_SECONDS, type PrespentExportBudget } from './export-budget.ts';
import { exportDocumentWriter, type ExportRow } from './export-document.ts';
import { ReaderGone, streamOnceStarted, type TextSink } from './export-stream.ts';
import {
  countExport,
  EXPORT_BATCH_SIZE,
  fetchExportRows,
  openExportCursor,
  selectClock,
} from './export.queries.ts';

/** How long a client may take nothing before the export gives up on it and frees its connection. */
const STALL_TIMEOUT_MS = 30_000;
/**
 * The snapshot's own bounds: a batch may read more than a request's statement does, and between batches
 * the transaction idles while the reader takes the last one (up to STALL_TIMEOUT_MS).
 */
const EXPORT_BOUNDS: StatementBounds = {
  statementTimeoutMs: STATEMENT_TIMEOUT_SECONDS.export * 1_000,
  idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_TIMEOUT_SECONDS.export * 1_000,
};

export interface ExportDeps {
  db: Database;
  logger: Logger;
  /** How long an export may stream in all; EXPORT_DEADLINE_SECONDS by default. */
  deadlineMs?: number;
  /** The API's public address, that attachments' `download_url`s start with (http/api-url.ts). */
  apiUrl: string;
  /** The budget, if authentication spent it with the credential's check (export-budget.ts). */
  prespent?: PrespentExportBudget;
}

export interface WorkspaceExport {
  /** The workspace's slug, for the file name. */
  slug: string;
  body: ReadableStream<Uint8Array>;
}

/** `404` outside the workspace, `403` below admin: who may export it. */
export function checkExportAccess(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<WorkspaceAccess> {
  return db.asCaller(principal, (sql) => enterAsExporter(sql, principal, slug));
}

/**
 * In one round trip with the snapshot's BEGIN: the access, the clock, the workspace, the cursor and its
 * first batch, with the COMMIT behind it (RLS shows none of the rows to a caller who may not read them);
 * then, once the access is judged, the budget. A workspace that fits in that batch is then written
 * without waiting on the database again. A larger one is read again, from a snapshot of its own that
 * stays open while it streams: a round trip per further batch, and the COMMIT. A refused attempt reads
 * at most that first batch, and sends none of it.
 */
export async function exportWorkspace(
  { db, logger, deadlineMs = EXPORT_DEADLINE_SECONDS * 1000, apiUrl, prespent }: ExportDeps,
  principal: Principal,
  slug: string,
  requestId: string,
): Promise<WorkspaceExport> {
  requireWorkspaceSlug(slug);
  const request = { principal, slug, apiUrl };
  const body = await streamOnceStarted({
    run: async (start, sink) => {
      const snapshot = await db.asCaller(principal, (sql) => readSnapshot(sql, request, true), EXPORT_BOUNDS);
      const access = judge(principal, slug, snapshot);
      // Only once the caller may export: a member's refused attempts do not spend it.
      await spendExportBudget(db, access.workspaceId, prespent);
      if (snapshot.first.length < EXPORT_BATCH_SIZE) return writeDocument(snapshot, start, sink);
      await db.asCaller(
        principal,
        async (sql) => {
          const streamed = await readSnapshot(sql, request, false);
          judge(principal, slug, streamed);
          await writeDocument(streamed, start, sink, () => fetchExportRows(sql));
        },
        EXPORT_BOUNDS,
      );
    },
    onLateFailure: (error) => logLateFailure(logger, requestId, error),
    stallTimeoutMs: STALL_TIMEOUT_MS,
    deadlineMs,
  });
  return { slug, body };
}

async function enterAsExporter(sql: Sql, principal: Principal, slug: string): Promise<WorkspaceAccess> {
  const access = await enterWorkspace(sql, principal, slug);
  requireRole(access, 'admin', 'export the workspace');
  return access;
}

/** Spends the budget, or takes over what authentication spent; `429` past it. */
async function spendExportBudget(
  db: Database,
  workspaceId: string,
  prespent: PrespentExportBudget | undefined,
): Promise<void> {
  const counted =
    prespent?.takeOver(workspaceId) ??
    (await db.serviceStatements((sql) => countExport(sql, workspaceId, EXPORT_WINDOW_SECONDS)));
  if (counted.hits <= EXPORTS_PER_WORKSPACE_PER_HOUR) return;
  throw new AppError(
    'rate_limited',
    `This workspace has been exported ${EXPORTS_PER_WORKSPACE_PER_HOUR} times this hour, the limit (exports_per_workspace_per_hour). Try again in ${counted.resets_in_seconds} seconds.`,
    { headers: { 'Retry-After': String(counted.resets_in_seconds) } },
  );
}

interface ExportRequest {
  principal: Principal;
  slug: string;
  apiUrl: string;
}

interface Snapshot {
  accessRow: WorkspaceAccessRow | undefined;
  exportedAt: string;
  workspace: WorkspaceRow | undefined;
  first: ExportRow[];
}

/**
 * The access, the clock, the workspace, the cursor and its first batch, in one round trip; with
 * `lastBatch`, the COMMIT goes behind the batch, so the cursor reads no further.
 */
async function readSnapshot(
  sql: Sql,
  { slug, apiUrl }: ExportRequest,
  lastBatch: boolean,
): Promise<Snapshot> {
  const workspaceRef = { slug };
  const [accessRow, exportedAt, workspace, , first] = await Promise.all([
    selectWorkspaceAccess(sql, slug),
    selectClock(sql),
    selectWorkspace(sql, workspaceRef),
    openExportCursor(sql, workspaceRef, apiUrl),
    fetchExportRows(lastBatch ? asLastStatement(sql) : sql),
  ]);
  return { accessRow, exportedAt, workspace, first };
}

/** `404` outside the workspace, `403` below admin. */
function judge(principal: Principal, slug: string, snapshot: Snapshot): WorkspaceAccess {
  const access = admitToWorkspace(principal, slug, snapshot.accessRow);
  requireRole(access, 'admin', 'export the workspace');
  if (!snapshot.workspace) throw workspaceNotFound(access.slug);
  return access;
}

/** The document, from the snapshot's first batch and, while batches come full, `next` ones. */
async function writeDocument(
  { exportedAt, workspace, first }: Snapshot,
  start: () => void,
  sink: TextSink,
  next?: () => Promise<ExportRow[]>,
): Promise<void> {
  if (!workspace) throw new Error('the snapshot was judged without its workspace');
  const document = exportDocumentWriter({ exportedAt, workspace: toWorkspace(workspace) });
  let rows = first;
  start();
  await sink.write(document.open());
  for (;;) {
    if (rows.length > 0) await sink.write(document.write(rows));
    if (rows.length < EXPORT_BATCH_SIZE || !next) break;
    rows = await next();
  }
  await sink.write(document.close());
}

function logLateFailure(logger: Logger, requestId: string, error: unknown): void {
  if (error instanceof ReaderGone) {
    logger.info('export stopped: the client stopped reading', {
      request_id: requestId,
      reason: error.message,
    });
    return;
  }
  logger.error('export failed after it began: the document was cut short', {
    request_id: requestId,
    ...describeError(error),
  });
}
