/**
 * What an import reads from a file, whatever its source (a Trello board's JSON, a CSV, a Tasklane export):
 * one shape, so that mapping, preview and writing are written once. A reader never throws on bad content;
 * it keeps what it can and says what it could not as problems, each with where in the file it is. Pure
 * TypeScript with no imports but types, so the web app can show the same words.
 */
import type { TaskPriority, TaskStatus } from '../../_shared/api-types.ts';

export const IMPORT_SOURCES = ['trello', 'csv', 'tasklane'] as const;
export type ImportSourceKind = (typeof IMPORT_SOURCES)[number];

/**
 * Something in the file the import cannot take as it is. An `error` stops a real import (the preview
 * still answers); a `warning` says what the import does instead (cuts a title, drops a label, leaves a
 * task unassigned).
 */
export interface ImportProblem {
  severity: 'error' | 'warning';
  /** Where in the file: `cards[12].name`, `line 7, column "due date"`, `tasks[3].title`. */
  location: string;
  message: string;
}

/**
 * A column of the source (a Trello list, a distinct value of a CSV's status column, a Tasklane status),
 * with the status the import suggests for it: the person importing may map it to another.
 */
export interface ImportColumn {
  /** The column's id in the source (a Trello list id, the CSV value itself, the Tasklane status). */
  sourceId: string;
  name: string;
  suggestedStatus: TaskStatus;
}

export interface ImportLabel {
  name: string;
  /** `#rrggbb` */
  color: string;
}

export interface ImportComment {
  body: string;
  /** The author as the source names them, for the note written into the body when they are not a member. */
  authorName: string | null;
  /** Matched against the workspace's members; most Trello exports give none. */
  authorEmail: string | null;
  /** ISO 8601, or null when the source does not say. */
  createdAt: string | null;
  /**
   * The author's user id, from a Tasklane export (which gives ids, never e-mails): matched against the
   * workspace's members when the export is imported into the workspace it came from, or one they share.
   */
  authorUserId?: string | null;
}

export interface ImportTask {
  /**
   * Unique within the file and stable between exports of the same data: `trello:<card id>`,
   * `tasklane:<task id>`, `csv:id:<the row's id column>` or, with none, `csv:row:<data row number>`.
   */
  sourceId: string;
  /** The ImportColumn.sourceId the task is in. */
  columnId: string;
  /** Within the limit already (a longer one is cut, with a warning). */
  title: string;
  /** Markdown, within the limit; a Trello card's checklists are appended to it as task lists. */
  description: string;
  priority: TaskPriority;
  /** Matched against the workspace's members; unknown or null leaves the task unassigned. */
  assigneeEmail: string | null;
  /** The assignee's user id, from a Tasklane export (which gives no e-mails): matched the same way. */
  assigneeUserId?: string | null;
  /** `YYYY-MM-DD` */
  dueDate: string | null;
  /** Names of ImportSource.labels, at most LABELS_PER_TASK. */
  labelNames: string[];
  comments: ImportComment[];
  /** Archived in the source (a closed Trello card or a card in a closed list): Canceled or skipped. */
  archived: boolean;
}

export interface ImportProject {
  /** Stable between exports of the same data: `trello:<board id>`; running an import again finds it. */
  sourceId: string;
  name: string;
  /** The project's key in the source (Tasklane exports), or null to derive one from the name. */
  key: string | null;
  description: string;
  columns: ImportColumn[];
  /** In the source's order: within each column, the board's order top to bottom. */
  tasks: ImportTask[];
}

export interface ImportSource {
  projects: ImportProject[];
  /** Every label the tasks name, each name once (compared case-insensitively). */
  labels: ImportLabel[];
  problems: ImportProblem[];
}
