/**
 * Imports (docs/product.md#imports): a file read into one shape (import-source.ts, by its source's
 * reader), planned against the workspace as it is (import-plan.ts), then shown (a dry run) or written in
 * one transaction as the caller. Owners and admins only. The file is read before the transaction opens,
 * so no transaction waits on parsing; the plan is made inside it, so what is written is what it saw.
 */
import type { Import, ImportPreview } from '../../_shared/api-types.ts';
import { asLastStatement, type Database, type Sql } from '../../_shared/db.ts';
import { AppError } from '../../_shared/errors.ts';
import type { Principal } from '../../_shared/principal.ts';
import {
  enterWorkspace,
  enterWorkspaceWith,
  readInWorkspace,
  requireRole,
  type WorkspaceAccess,
} from '../workspaces/workspace-access.ts';
import { canImport, planImport, resolveTargets, type ImportOptions, type ImportPlan } from './import-plan.ts';
import { previewOf, problemsShown } from './import-preview.ts';
import type { ImportSource, ImportSourceKind } from './import-source.ts';
import {
  insertImport,
  insertImportedComments,
  insertImportedLabels,
  insertImportedProject,
  insertImportedTasks,
  IMPORT_BATCH_SIZE,
  markImporting,
  selectImport,
  selectImportedSourceIds,
  selectWorkspaceForImport,
  type ImportedTaskRow,
} from './imports.queries.ts';

const IMPORT = 'import into the workspace';

export interface ImportRequest {
  source: ImportSourceKind;
  /** The file, read (readImportFile). */
  read: ImportSource;
  options: ImportOptions;
  /** A CSV's headers and what each was taken for, for the preview's mapping step. */
  csvColumns: ImportPreview['csv_columns'];
}

export function importNotFound(): AppError {
  return new AppError('not_found', 'This workspace has no import with this id.');
}

/**
 * `404` outside the workspace, `403` below admin: asked before the file is read, so nobody else has a
 * large file parsed. The import asks again in its own transaction.
 */
export function checkImportAccess(
  db: Database,
  principal: Principal,
  slug: string,
): Promise<WorkspaceAccess> {
  return db.asCaller(principal, (sql) => enterAsImporter(asLastStatement(sql), principal, slug));
}

export function previewImport(
  db: Database,
  principal: Principal,
  slug: string,
  request: ImportRequest,
): Promise<ImportPreview> {
  return db.asCaller(principal, async (sql) => {
    const plan = await planFor(sql, principal, slug, request);
    return previewOf(request.source, plan.plan, request.csvColumns);
  });
}

export function runImport(
  db: Database,
  principal: Principal,
  slug: string,
  request: ImportRequest,
): Promise<Import> {
  return db.asCaller(principal, async (sql) => {
    const { access, plan } = await planFor(sql, principal, slug, request);
    refuseUnlessImportable(plan);
    return writePlan(sql, access.workspaceId, request.source, plan);
  });
}

export function getImport(db: Database, principal: Principal, slug: string, id: string): Promise<Import> {
  return db.asCaller(principal, async (sql) => {
    const { access, found } = await readInWorkspace(sql, principal, slug, (read) =>
      selectImport(read, slug, id),
    );
    requireRole(access, 'admin', IMPORT);
    if (!found) throw importNotFound();
    return found;
  });
}

async function enterAsImporter(sql: Sql, principal: Principal, slug: string): Promise<WorkspaceAccess> {
  const access = await enterWorkspace(sql, principal, slug);
  requireRole(access, 'admin', IMPORT);
  return access;
}

/**
 * The plan, made in the transaction that writes it. What it reads of the workspace (its people, labels,
 * projects and the tasks an earlier import of the file made) goes with the access check, in one round trip.
 */
async function planFor(
  sql: Sql,
  principal: Principal,
  slug: string,
  { read, options }: ImportRequest,
): Promise<{ access: WorkspaceAccess; plan: ImportPlan }> {
  const sourceIds = read.projects.flatMap((project) => project.tasks.map((task) => task.sourceId));
  const { access, found } = await enterWorkspaceWith(sql, principal, slug, () =>
    Promise.all([
      selectWorkspaceForImport(sql, { slug }, principal.user_id),
      selectImportedSourceIds(sql, { slug }, sourceIds),
      // For the writes that follow, if any: a preview writes nothing for it to change.
      markImporting(sql),
    ]),
  );
  requireRole(access, 'admin', IMPORT);
  const [workspace, imported] = found;
  const { targets, problems } = resolveTargets(read, options, workspace);
  return { access, plan: planImport(read, options, workspace, targets, imported, problems) };
}

/** A plan with errors is refused: 409 for a limit, 422 naming every problem of the file. */
function refuseUnlessImportable(plan: ImportPlan): void {
  if (canImport(plan)) return;
  const errors = plan.problems.filter((problem) => problem.severity === 'error');
  const limit = errors.find((problem) => problem.limit);
  if (limit) throw new AppError('limit_reached', limit.message);
  throw new AppError(
    'validation_failed',
    'The file has problems; preview it (dry_run=true) to see them all.',
    {
      errors: errors.slice(0, 100).map((problem) => ({
        path: `file.${problem.location}`,
        code: 'import_problem',
        message: problem.message,
      })),
    },
  );
}

async function writePlan(
  sql: Sql,
  workspaceId: string,
  source: ImportSourceKind,
  plan: ImportPlan,
): Promise<Import> {
  const madeLabels = await insertImportedLabels(sql, workspaceId, plan.newLabels);
  const labelIdOf = (name: string) => plan.labelIds.get(name) ?? madeLabels.get(name);
  const projects: Import['projects'] = [];
  for (const project of plan.projects) {
    const { target } = project;
    const id = target.kind === 'existing' ? target.id : await insertImportedProject(sql, workspaceId, target);
    projects.push({ id, key: target.key, name: target.name });
    for (let start = 0; start < project.tasks.length; start += IMPORT_BATCH_SIZE) {
      const batch = project.tasks.slice(start, start + IMPORT_BATCH_SIZE);
      const taskIds = await insertImportedTasks(
        sql,
        id,
        batch.map((task) => taskRowOf(task, labelIdOf)),
      );
      await insertImportedComments(
        sql,
        batch.flatMap((task) =>
          task.comments.map((body) => ({ task_id: requireId(taskIds, task.sourceId), body })),
        ),
      );
    }
  }
  return insertImport(asLastStatement(sql), workspaceId, {
    source,
    projects,
    counts: plan.counts,
    problems: problemsShown(plan.problems),
  });
}

function taskRowOf(
  task: ImportPlan['projects'][number]['tasks'][number],
  labelIdOf: (name: string) => string | null | undefined,
): ImportedTaskRow {
  return {
    source_id: task.sourceId,
    title: task.title,
    description: task.description,
    status: task.status,
    priority: task.priority,
    assignee_id: task.assigneeId,
    due_date: task.dueDate,
    label_ids: task.labelNames.flatMap((name) => labelIdOf(name) ?? []),
  };
}

function requireId(ids: ReadonlyMap<string, string>, sourceId: string): string {
  const id = ids.get(sourceId);
  if (!id) throw new Error(`the import wrote no task for ${sourceId}`);
  return id;
}
