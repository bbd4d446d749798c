/**
 * Finding a project inside a workspace the caller has entered, and the archive rule (docs/product.md#states):
 * an archived project is read-only. Anything that changes a project or what is in it (its tasks, in time)
 * calls `requireActiveProject` first.
 */
import { AppError } from '../../_shared/errors.ts';
import type { Project } from '../../_shared/api-types.ts';

export function projectNotFound(key: string): AppError {
  return new AppError('not_found', `This workspace has no project with the key "${key}".`);
}

/** The project `key` as selectProjectAt found it; `404` when there is none (keys are case-sensitive). */
export function projectFound(project: Project | undefined, key: string): Project {
  if (!project) throw projectNotFound(key);
  return project;
}

export function projectArchived(key: string): AppError {
  return new AppError('project_archived', `The project "${key}" is archived: unarchive it to change it.`);
}

/** `409 project_archived` unless the project is active. */
export function requireActiveProject(project: Pick<Project, 'key' | 'archived'>): void {
  if (project.archived) throw projectArchived(project.key);
}
