/**
 * Finding a project inside a workspace the caller has entered, and the archive rule (SPEC §4): an
 * archived project is read-only. Anything that changes a project or what is in it (its tasks, in time)
 * calls `requireActiveProject` first.
 */
import { AppError } from '../../_shared/errors.ts';
import type { ProjectRow } from './projects.queries.ts';

/** A project's address: `/v1/workspaces/{slug}/projects/{key}`. */
export interface ProjectAddress {
  slug: string;
  key: string;
}

export function projectNotFound(key: string): AppError {
  return new AppError('not_found', `This workspace has no project with the key "${key}".`);
}

/** The project `key` from the row of selectProjectAt; `404` when there is none (keys are case-sensitive). */
export function projectFound(row: ProjectRow | undefined, key: string): ProjectRow {
  if (!row) throw projectNotFound(key);
  return row;
}

export function projectArchived(key: string): AppError {
  return new AppError('project_archived', `The project "${key}" is archived: unarchive it to change it.`);
}

/** `409 project_archived` unless the project is active. */
export function requireActiveProject(project: Pick<ProjectRow, 'key' | 'archived_at'>): void {
  if (project.archived_at !== null) throw projectArchived(project.key);
}
