import { CreateLabelBodySchema } from '@api/labels/labels.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import {
  apiFieldErrors,
  validateForm,
  type FieldErrors,
  type Validation,
} from '../../lib/forms/form-validation.ts';

/** The label form's rules: the very schema `POST …/labels` validates with (a rename sends both fields). */

export const LABEL_FIELD_LABELS = { name: 'Name', color: 'Color' } as const;

export type LabelField = keyof typeof LABEL_FIELD_LABELS;

type CreateLabel = components['schemas']['CreateLabel'];

export function validateLabel(values: CreateLabel): Validation<CreateLabel, LabelField> {
  return validateForm(CreateLabelBodySchema, values, LABEL_FIELD_LABELS);
}

/** The API's refusal as errors beside the fields: its `errors[]`, and `label_exists` on the name. */
export function labelApiErrors(error: unknown): FieldErrors<LabelField> {
  const errors = apiFieldErrors(error, LABEL_FIELD_LABELS);
  if (error instanceof ApiError && error.code === 'label_exists') errors.name = error.detail;
  return errors;
}
