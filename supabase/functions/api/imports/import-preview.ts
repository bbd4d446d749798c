/**
 * A plan as the API shows it: the preview of a dry run (openapi.yaml's ImportPreview), and the problems
 * an import keeps, bounded so that no file makes an answer without end.
 */
import type { ImportPreview, ImportProblem } from '../../_shared/api-types.ts';
import { canImport, type ImportPlan, type PlannedProblem } from './import-plan.ts';
import type { ImportSourceKind } from './import-source.ts';
import { IMPORT_PREVIEW_TASKS, IMPORT_PROBLEMS_SHOWN } from './imports.schemas.ts';

export function previewOf(
  source: ImportSourceKind,
  plan: ImportPlan,
  csvColumns: ImportPreview['csv_columns'],
): ImportPreview {
  return {
    object: 'import_preview',
    source,
    can_import: canImport(plan),
    counts: plan.counts,
    projects: plan.projects.map((project) => ({
      source_id: project.sourceId,
      name: project.target.name,
      key: project.target.key,
      exists: project.target.kind === 'existing',
      columns: project.columns.map((column) => ({
        source_id: column.sourceId,
        name: column.name,
        suggested_status: column.suggestedStatus,
        status: column.status,
        tasks: column.tasks,
      })),
      tasks: {
        create: project.tasks.length,
        already_imported: project.alreadyImported,
        archived_skipped: project.archivedSkipped,
        invalid: project.invalid,
      },
      first_tasks: project.tasks.slice(0, IMPORT_PREVIEW_TASKS).map((task) => ({
        title: task.title,
        status: task.status,
        priority: task.priority,
        assignee_id: task.assigneeId,
        due_date: task.dueDate,
        labels: task.labelNames.map((name) => plan.labelNames.get(name) ?? name),
      })),
    })),
    labels: plan.newLabels.map(({ name, color }) => ({ name, color })),
    csv_columns: csvColumns,
    problems: problemsShown(plan.problems),
  };
}

/** The problems as the API answers them: errors first, at most IMPORT_PROBLEMS_SHOWN, then how many more. */
export function problemsShown(problems: readonly PlannedProblem[]): ImportProblem[] {
  const ordered = [
    ...problems.filter((problem) => problem.severity === 'error'),
    ...problems.filter((problem) => problem.severity === 'warning'),
  ].map(({ severity, location, message }) => ({ severity, location, message }));
  if (ordered.length <= IMPORT_PROBLEMS_SHOWN) return ordered;
  const shown = ordered.slice(0, IMPORT_PROBLEMS_SHOWN - 1);
  const rest = ordered.length - shown.length;
  const severity = ordered.slice(shown.length).some((problem) => problem.severity === 'error')
    ? 'error'
    : 'warning';
  return [...shown, { severity, location: 'file', message: `${rest} more problems are not listed.` }];
}
