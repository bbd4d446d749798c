import { CreateProjectBodySchema, UpdateProjectBodySchema } from '@api/projects/projects.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { validateForm, type Validation } from '../../lib/forms/form-validation.ts';

/** The create-project form's rules: the very schema `POST …/projects` validates with. */

export const PROJECT_LABELS = { key: 'Key', name: 'Name', description: 'Description' } as const;

export type ProjectField = keyof typeof PROJECT_LABELS;

type CreateProject = components['schemas']['CreateProject'];

export function validateNewProject(values: CreateProject): Validation<CreateProject, ProjectField> {
  return validateForm(CreateProjectBodySchema, values, PROJECT_LABELS);
}

type UpdateProject = components['schemas']['UpdateProject'];

/** The project settings form's rules (name and key): those of `PATCH …/projects/{key}`. */
export function validateProjectChange(values: UpdateProject): Validation<UpdateProject, ProjectField> {
  return validateForm(UpdateProjectBodySchema, values, PROJECT_LABELS);
}
