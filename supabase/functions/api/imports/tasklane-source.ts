/**
 * A Tasklane workspace export (GET /v1/workspaces/{slug}/export) read into an ImportSource: one project
 * per exported project, its columns the statuses its tasks are in (board order), its tasks in the
 * export's order (board order already), each with its labels by name, its comments (deleted ones, which
 * have no body, left out) and its assignee. An export names people by user id and never gives their
 * e-mail, so assignees and authors are given as `assigneeUserId` / `authorUserId`, with their display
 * name for the note an unmatched author's comment gets.
 */
import { TASK_PRIORITIES, TASK_STATUSES } from '../../_shared/vocabulary/spec-values.ts';
import type { TaskStatus } from '../../_shared/api-types.ts';
import { readDate } from './import-dates.ts';
import { arrayOf, isObject, readJson, stringOf, type JsonObject } from './import-json.ts';
import { fitDescription, fitTitle, quote } from './import-text.ts';
import { LabelCollector, limitTaskLabels } from './label-collector.ts';
import type {
  ImportColumn,
  ImportComment,
  ImportProblem,
  ImportProject,
  ImportSource,
  ImportTask,
} from './import-source.ts';

/**
 * The export's `format_version` this reads: EXPORT_FORMAT_VERSION of export/export-document.ts, which
 * features may not import. The export's format goes up only when an old reader would misread it.
 */
export const TASKLANE_EXPORT_FORMAT_VERSION = 1;

const STATUS_NAMES: Readonly<Record<TaskStatus, string>> = {
  backlog: 'Backlog',
  todo: 'To do',
  in_progress: 'In progress',
  in_review: 'In review',
  done: 'Done',
  canceled: 'Canceled',
};

const notTasklane = (why: string): ImportSource => ({
  projects: [],
  labels: [],
  problems: [{ severity: 'error', location: 'the file', message: `not a Tasklane export: ${why}` }],
});

export function readTasklaneExport(text: string): ImportSource {
  const json = readJson(text, 'the Tasklane export');
  if (!json.ok) return { projects: [], labels: [], problems: [json.problem] };
  const document = json.value;
  if (!isObject(document) || document.object !== 'export') {
    return notTasklane('its "object" is not "export"');
  }
  if (document.format_version !== TASKLANE_EXPORT_FORMAT_VERSION) {
    return notTasklane(
      `its format_version is ${JSON.stringify(document.format_version) ?? 'missing'}; this import reads ${TASKLANE_EXPORT_FORMAT_VERSION}`,
    );
  }
  const missing = ['members', 'labels', 'projects', 'tasks', 'comments'].find(
    (key) => !Array.isArray(document[key]),
  );
  if (missing) return notTasklane(`its "${missing}" is not a list`);
  if (arrayOf(document.projects).length === 0) {
    return {
      projects: [],
      labels: [],
      problems: [
        { severity: 'error', location: 'projects', message: 'the export has no projects to import' },
      ],
    };
  }
  return readDocument(document);
}

function readDocument(document: JsonObject): ImportSource {
  const problems: ImportProblem[] = [];
  const collector = new LabelCollector(problems);
  const labelNames = new Map<string, string>();
  arrayOf(document.labels).forEach((label, index) => {
    if (!isObject(label) || typeof label.id !== 'string') return;
    const color = stringOf(label.color) ?? '';
    const at = `labels[${index}]`;
    if (!/^#[0-9a-f]{6}$/i.test(color)) {
      problems.push({
        severity: 'warning',
        location: `${at}.color`,
        message: `${quote(color)} is not a colour: skipped`,
      });
      return;
    }
    const name = collector.add(stringOf(label.name) ?? '', color, `${at}.name`);
    if (name) labelNames.set(label.id, name);
  });

  const memberNames = new Map<string, string | null>();
  for (const member of arrayOf(document.members)) {
    if (isObject(member) && typeof member.user_id === 'string') {
      memberNames.set(member.user_id, stringOf(member.display_name));
    }
  }

  const comments = readComments(document, memberNames);
  const projects = new Map<string, ImportProject>();
  arrayOf(document.projects).forEach((project, index) => {
    if (!isObject(project) || typeof project.id !== 'string') {
      problems.push({
        severity: 'warning',
        location: `projects[${index}]`,
        message: 'is not a project: skipped',
      });
      return;
    }
    projects.set(project.id, {
      sourceId: `tasklane:${project.id}`,
      name: (stringOf(project.name) ?? '').trim() || `Project ${index + 1}`,
      key: stringOf(project.key),
      description: stringOf(project.description) ?? '',
      columns: [],
      tasks: [],
    });
  });

  arrayOf(document.tasks).forEach((raw, index) => {
    const at = `tasks[${index}]`;
    if (!isObject(raw) || typeof raw.id !== 'string') {
      problems.push({ severity: 'warning', location: at, message: 'is not a task: skipped' });
      return;
    }
    if (raw.deleted === true || (raw.deleted_at !== undefined && raw.deleted_at !== null)) return;
    const project = projects.get(stringOf(raw.project_id) ?? '');
    if (!project) {
      problems.push({
        severity: 'warning',
        location: `${at}.project_id`,
        message: 'is a project the export does not have: the task is skipped',
      });
      return;
    }
    const task = readTask(raw, at, { labelNames, comments, problems });
    if (task) project.tasks.push(task);
  });

  for (const project of projects.values()) {
    const statuses = new Set(project.tasks.map((task) => task.columnId));
    project.columns = TASK_STATUSES.filter((status) => statuses.has(status)).map((status): ImportColumn => ({
      sourceId: status,
      name: STATUS_NAMES[status],
      suggestedStatus: status,
    }));
  }
  return { projects: [...projects.values()], labels: collector.labels(), problems };
}

/** Each task's comments, oldest first (the export's order), by task id; deleted ones left out. */
function readComments(
  document: JsonObject,
  memberNames: Map<string, string | null>,
): Map<string, ImportComment[]> {
  const byTask = new Map<string, ImportComment[]>();
  for (const comment of arrayOf(document.comments)) {
    if (!isObject(comment) || comment.deleted === true) continue;
    const task = stringOf(comment.task_id);
    const body = stringOf(comment.body) ?? '';
    if (task === null || body.trim() === '') continue;
    const author = stringOf(comment.author_id);
    byTask.set(task, [
      ...(byTask.get(task) ?? []),
      {
        body,
        authorName: author === null ? null : (memberNames.get(author) ?? null),
        authorEmail: null,
        authorUserId: author,
        createdAt: stringOf(comment.created_at),
      },
    ]);
  }
  return byTask;
}

interface TaskContext {
  labelNames: Map<string, string>;
  comments: Map<string, ImportComment[]>;
  problems: ImportProblem[];
}

function readTask(
  raw: JsonObject,
  at: string,
  { labelNames, comments, problems }: TaskContext,
): ImportTask | null {
  const title = fitTitle(stringOf(raw.title) ?? '', `${at}.title`, problems);
  if (title === null) return null;
  const status = TASK_STATUSES.find((known) => known === raw.status);
  if (!status) {
    problems.push({
      severity: 'warning',
      location: `${at}.status`,
      message: `${quote(String(raw.status))} is not a status: the task is put in To do`,
    });
  }
  const priority = TASK_PRIORITIES.find((known) => known === raw.priority);
  if (!priority && raw.priority !== undefined) {
    problems.push({
      severity: 'warning',
      location: `${at}.priority`,
      message: `${quote(String(raw.priority))} is not a priority: none is set`,
    });
  }
  const labels: string[] = [];
  for (const id of arrayOf(raw.label_ids)) {
    const name = labelNames.get(String(id));
    if (name) labels.push(name);
    else
      problems.push({
        severity: 'warning',
        location: `${at}.label_ids`,
        message: `label ${quote(String(id))} is not in the export: dropped`,
      });
  }
  return {
    sourceId: `tasklane:${String(raw.id)}`,
    columnId: status ?? 'todo',
    title,
    description: fitDescription(stringOf(raw.description) ?? '', `${at}.description`, problems),
    priority: priority ?? 'none',
    assigneeEmail: null,
    assigneeUserId: stringOf(raw.assignee_id),
    dueDate: dueDateOf(raw.due_date, at, problems),
    labelNames: limitTaskLabels(labels, `${at}.label_ids`, problems),
    comments: comments.get(String(raw.id)) ?? [],
    archived: false,
  };
}

function dueDateOf(value: unknown, at: string, problems: ImportProblem[]): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  const reading = /^\d{4}-\d{2}-\d{2}$/.test(text) ? readDate(text) : { kind: 'invalid' as const };
  if (reading.kind === 'date') return reading.date;
  problems.push({
    severity: 'warning',
    location: `${at}.due_date`,
    message: `${quote(text)} is not a date: no due date`,
  });
  return null;
}
