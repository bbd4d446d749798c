import { CreateWorkspaceBodySchema, UpdateWorkspaceBodySchema } from '@api/workspaces/workspaces.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { validateForm, type Validation } from '../../lib/forms/form-validation.ts';

/** The new-workspace form's rules: the very schema `POST /v1/workspaces` validates with. */

export const WORKSPACE_LABELS = { name: 'Name', slug: 'Slug' } as const;

export type WorkspaceField = keyof typeof WORKSPACE_LABELS;

type CreateWorkspace = components['schemas']['CreateWorkspace'];

export function validateNewWorkspace(values: CreateWorkspace): Validation<CreateWorkspace, WorkspaceField> {
  return validateForm(CreateWorkspaceBodySchema, values, WORKSPACE_LABELS);
}

type UpdateWorkspace = components['schemas']['UpdateWorkspace'];

/** The general settings form's rules: those of `PATCH /v1/workspaces/{slug}`. */
export function validateWorkspaceChange(
  values: UpdateWorkspace,
): Validation<UpdateWorkspace, WorkspaceField> {
  return validateForm(UpdateWorkspaceBodySchema, values, WORKSPACE_LABELS);
}
