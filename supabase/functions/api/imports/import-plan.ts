/**
 * From what a file holds (ImportSource) and the workspace as it is, what an import writes: which project
 * each of the file's projects goes into (found by its source id, named in the options, or made), each
 * task's status, assignee and labels, the labels to make, the comments with their original author, and
 * every problem the preview shows. Pure: the preview and the import are the same plan, one shown and the
 * other written.
 */
import type { TaskPriority, TaskStatus, WorkspaceRole } from '../../_shared/api-types.ts';
import {
  LABELS_PER_TASK,
  LABELS_PER_WORKSPACE,
  PROJECTS_PER_WORKSPACE,
  TASKS_PER_PROJECT,
} from '../../_shared/limits.ts';
import { suggestProjectKey } from '../../_shared/vocabulary/project-key.ts';
import { COMMENT_BODY_LENGTH } from '../comments/comments.schemas.ts';
import { PROJECT_NAME_LENGTH } from '../projects/projects.schemas.ts';
import type {
  ImportComment,
  ImportLabel,
  ImportProblem,
  ImportProject,
  ImportSource,
  ImportTask,
} from './import-source.ts';

export interface ImportOptions {
  project?: { key?: string | undefined; name?: string | undefined } | undefined;
  statuses?: Record<string, TaskStatus> | undefined;
  archived: 'skip' | 'canceled';
}

export interface WorkspaceForImport {
  callerId: string;
  members: { userId: string; email: string; role: WorkspaceRole }[];
  labels: { id: string; name: string; color: string }[];
  projects: { id: string; key: string; name: string; sourceId: string | null; archived: boolean }[];
}

/** Where one of the file's projects goes: a project the workspace has, or one to make. */
export type ImportTarget =
  | { kind: 'existing'; id: string; key: string; name: string }
  | { kind: 'new'; key: string; name: string; description: string; sourceId: string };

/** A problem the import refuses for a limit (409) rather than for the file (422). */
export interface PlannedProblem extends ImportProblem {
  limit?: boolean;
}

export interface PlannedTask {
  sourceId: string;
  title: string;
  description: string;
  status: TaskStatus;
  priority: TaskPriority;
  assigneeId: string | null;
  dueDate: string | null;
  /** Lower-cased names: the labels the workspace has, or ones the plan makes. */
  labelNames: string[];
  comments: string[];
}

export interface PlannedColumn {
  sourceId: string;
  name: string;
  suggestedStatus: TaskStatus;
  status: TaskStatus;
  tasks: number;
}

export interface PlannedProject {
  sourceId: string;
  target: ImportTarget;
  columns: PlannedColumn[];
  tasks: PlannedTask[];
  alreadyImported: number;
  archivedSkipped: number;
  invalid: number;
}

export interface ImportPlan {
  projects: PlannedProject[];
  /** The labels to make, each name once. */
  newLabels: ImportLabel[];
  /** Every label the tasks name, by lower-cased name: the workspace's id, or null for one to make. */
  labelIds: Map<string, string | null>;
  /** Each label's name as the workspace (or, for one to make, the file) spells it, by lower-cased name. */
  labelNames: Map<string, string>;
  problems: PlannedProblem[];
  counts: { projects: number; tasks: number; comments: number; labels: number };
}

const FALLBACK_PROJECT_NAME = 'Imported board';

/** The file's projects' targets, before the tasks are planned (the tasks already imported are read for them). */
export function resolveTargets(
  source: ImportSource,
  options: ImportOptions,
  workspace: WorkspaceForImport,
): { targets: ImportTarget[]; problems: PlannedProblem[] } {
  const problems: PlannedProblem[] = [];
  const takenKeys = new Set(workspace.projects.map((project) => project.key));
  if (options.project && source.projects.length > 1) {
    problems.push(optionProblem('options.project names one project, but the file holds several.'));
  }
  const targets = source.projects.map((project, index) => {
    const chosen = source.projects.length === 1 ? options.project : undefined;
    const target = targetOf(project, chosen, workspace, takenKeys);
    if (target.kind === 'new') takenKeys.add(target.key);
    const existing =
      target.kind === 'existing'
        ? workspace.projects.find((candidate) => candidate.id === target.id)
        : undefined;
    if (existing?.archived) {
      problems.push({
        severity: 'error',
        location: `projects[${index}]`,
        message: `The project ${existing.key} is archived: unarchive it first, or import into another project.`,
      });
    }
    return target;
  });
  const made = targets.filter((target) => target.kind === 'new').length;
  if (made > 0 && workspace.projects.length + made > PROJECTS_PER_WORKSPACE) {
    problems.push(limitProblem(`the workspace would have more than ${PROJECTS_PER_WORKSPACE} projects`));
  }
  return { targets, problems };
}

function targetOf(
  project: ImportProject,
  chosen: ImportOptions['project'],
  workspace: WorkspaceForImport,
  takenKeys: ReadonlySet<string>,
): ImportTarget {
  if (chosen?.key) {
    const named = workspace.projects.find((candidate) => candidate.key === chosen.key);
    if (named) return { kind: 'existing', id: named.id, key: named.key, name: named.name };
  }
  const found = workspace.projects.find((candidate) => candidate.sourceId === project.sourceId);
  if (found && !chosen) return { kind: 'existing', id: found.id, key: found.key, name: found.name };
  const name = projectNameOf(chosen?.name ?? project.name);
  const wanted = chosen?.key ?? project.key ?? suggestProjectKey(name);
  return {
    kind: 'new',
    key: freeKey(wanted || 'IMP', takenKeys),
    name,
    description: project.description,
    sourceId: project.sourceId,
  };
}

function projectNameOf(name: string): string {
  const trimmed = name.trim().slice(0, PROJECT_NAME_LENGTH.max).trim();
  return trimmed || FALLBACK_PROJECT_NAME;
}

/** `wanted`, or, if the workspace has it, the first of `wanted2`, `wanted3`… that fits a key's length. */
export function freeKey(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n += 1) {
    const suffix = String(n);
    const key = wanted.slice(0, 10 - suffix.length) + suffix;
    if (!taken.has(key)) return key;
  }
}

/**
 * The whole plan. `alreadyImported` holds, for each target that exists, the source ids of the tasks it
 * has: those are left as they are.
 */
export function planImport(
  source: ImportSource,
  options: ImportOptions,
  workspace: WorkspaceForImport,
  targets: readonly ImportTarget[],
  alreadyImported: ReadonlyMap<string, ReadonlySet<string>>,
  targetProblems: readonly PlannedProblem[] = [],
): ImportPlan {
  const problems: PlannedProblem[] = [...source.problems, ...targetProblems];
  const people = peopleOf(workspace);
  const labels = labelBook(workspace, source.labels);
  const projects = source.projects.map((project, index) => {
    const target = targets[index];
    if (!target) throw new Error(`no target for the file's project ${index}`);
    const imported = target.kind === 'existing' ? alreadyImported.get(target.id) : undefined;
    return planProject(project, target, imported ?? new Set(), options, people, labels, problems);
  });
  for (const project of projects) {
    const existing = workspace.projects.find((candidate) => candidate.key === project.target.key);
    if (project.tasks.length > TASKS_PER_PROJECT) {
      // A project that exists has tasks too; its own count is checked as they are written.
      problems.push(
        limitProblem(`${project.target.key} would have more than ${TASKS_PER_PROJECT} tasks`, existing?.key),
      );
    }
  }
  if (workspace.labels.length + labels.newLabels.length > LABELS_PER_WORKSPACE) {
    problems.push(limitProblem(`the workspace would have more than ${LABELS_PER_WORKSPACE} labels`));
  }
  return {
    projects,
    newLabels: labels.newLabels,
    labelIds: labels.ids,
    labelNames: labels.names,
    problems,
    counts: {
      projects: projects.filter((project) => project.target.kind === 'new').length,
      tasks: projects.reduce((sum, project) => sum + project.tasks.length, 0),
      comments: projects.reduce(
        (sum, project) => sum + project.tasks.reduce((inner, task) => inner + task.comments.length, 0),
        0,
      ),
      labels: labels.newLabels.length,
    },
  };
}

interface People {
  callerId: string;
  /** Members who may be assigned (not viewers), by lower-cased e-mail and by user id. */
  assignableByEmail: Map<string, string>;
  assignableIds: Set<string>;
  nameById: Map<string, string>;
}

function peopleOf(workspace: WorkspaceForImport): People {
  const assignable = workspace.members.filter((member) => member.role !== 'viewer');
  return {
    callerId: workspace.callerId,
    assignableByEmail: new Map(assignable.map((member) => [member.email.toLowerCase(), member.userId])),
    assignableIds: new Set(assignable.map((member) => member.userId)),
    nameById: new Map(workspace.members.map((member) => [member.userId, member.email])),
  };
}

interface LabelBook {
  ids: Map<string, string | null>;
  names: Map<string, string>;
  newLabels: ImportLabel[];
}

/** The file's labels against the workspace's, by name in any case: an existing one keeps its colour. */
function labelBook(workspace: WorkspaceForImport, fileLabels: readonly ImportLabel[]): LabelBook {
  const ids = new Map<string, string | null>(
    workspace.labels.map((label) => [label.name.toLowerCase(), label.id]),
  );
  const names = new Map(workspace.labels.map((label) => [label.name.toLowerCase(), label.name]));
  const newLabels: ImportLabel[] = [];
  for (const label of fileLabels) {
    const name = label.name.toLowerCase();
    if (ids.has(name)) continue;
    ids.set(name, null);
    names.set(name, label.name);
    newLabels.push(label);
  }
  return { ids, names, newLabels };
}

function planProject(
  project: ImportProject,
  target: ImportTarget,
  imported: ReadonlySet<string>,
  options: ImportOptions,
  people: People,
  labels: LabelBook,
  problems: PlannedProblem[],
): PlannedProject {
  const statusOf = new Map(
    project.columns.map((column) => [
      column.sourceId,
      options.statuses?.[column.sourceId] ?? column.suggestedStatus,
    ]),
  );
  const planned: PlannedProject = {
    sourceId: project.sourceId,
    target,
    columns: [],
    tasks: [],
    alreadyImported: 0,
    archivedSkipped: 0,
    invalid: 0,
  };
  const perColumn = new Map<string, number>();
  const seen = new Set<string>();
  for (const task of project.tasks) {
    if (seen.has(task.sourceId)) {
      planned.invalid += 1;
      problems.push({
        severity: 'warning',
        location: task.sourceId,
        message: `"${task.title}" appears twice in the file; only its first is imported.`,
      });
      continue;
    }
    seen.add(task.sourceId);
    if (imported.has(task.sourceId)) {
      planned.alreadyImported += 1;
      continue;
    }
    if (task.archived && options.archived === 'skip') {
      planned.archivedSkipped += 1;
      continue;
    }
    const status = task.archived ? 'canceled' : (statusOf.get(task.columnId) ?? 'todo');
    planned.tasks.push(planTask(task, status, people, labels, problems));
    if (!task.archived) perColumn.set(task.columnId, (perColumn.get(task.columnId) ?? 0) + 1);
  }
  planned.columns = project.columns.map((column) => ({
    sourceId: column.sourceId,
    name: column.name,
    suggestedStatus: column.suggestedStatus,
    status: statusOf.get(column.sourceId) ?? column.suggestedStatus,
    tasks: perColumn.get(column.sourceId) ?? 0,
  }));
  return planned;
}

function planTask(
  task: ImportTask,
  status: TaskStatus,
  people: People,
  labels: LabelBook,
  problems: PlannedProblem[],
): PlannedTask {
  const names = [...new Set(task.labelNames.map((name) => name.toLowerCase()))].filter((name) =>
    labels.ids.has(name),
  );
  if (names.length > LABELS_PER_TASK) {
    problems.push({
      severity: 'warning',
      location: task.sourceId,
      message: `"${task.title}" has ${names.length} labels; it keeps the first ${LABELS_PER_TASK}.`,
    });
  }
  return {
    sourceId: task.sourceId,
    title: task.title,
    description: task.description,
    status,
    priority: task.priority,
    assigneeId: assigneeOf(task, people, problems),
    dueDate: task.dueDate,
    labelNames: names.slice(0, LABELS_PER_TASK),
    comments: task.comments.map((comment) => commentBody(comment, people)),
  };
}

function assigneeOf(task: ImportTask, people: People, problems: PlannedProblem[]): string | null {
  const byId = task.assigneeUserId;
  if (byId && people.assignableIds.has(byId)) return byId;
  const email = task.assigneeEmail?.toLowerCase();
  const byEmail = email ? people.assignableByEmail.get(email) : undefined;
  if (byEmail) return byEmail;
  if (email || byId) {
    problems.push({
      severity: 'warning',
      location: task.sourceId,
      message: `"${task.title}" is left unassigned: ${email ?? 'its assignee'} is not a member who may be assigned.`,
    });
  }
  return null;
}

/**
 * A comment is written by the person importing (nobody may write as someone else), so unless it was
 * theirs in the first place its body starts with who wrote it and when.
 */
function commentBody(comment: ImportComment, people: People): string {
  const mine =
    comment.authorUserId === people.callerId ||
    (comment.authorEmail !== null &&
      people.assignableByEmail.get(comment.authorEmail.toLowerCase()) === people.callerId);
  const author = comment.authorName ?? comment.authorEmail ?? 'someone';
  const when = comment.createdAt ? ` on ${comment.createdAt.slice(0, 10)}` : '';
  const body = mine ? comment.body : `*${author} wrote${when}:*\n\n${comment.body}`;
  return body.slice(0, COMMENT_BODY_LENGTH.max);
}

function optionProblem(message: string): PlannedProblem {
  return { severity: 'error', location: 'options', message };
}

function limitProblem(what: string, key?: string): PlannedProblem {
  return {
    severity: 'error',
    location: key ? `project ${key}` : 'file',
    message: `The import would pass a limit: ${what}.`,
    limit: true,
  };
}

/** Whether `dry_run=false` would write this plan. */
export function canImport(plan: Pick<ImportPlan, 'problems'>): boolean {
  return plan.problems.every((problem) => problem.severity !== 'error');
}
