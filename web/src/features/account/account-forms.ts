import { UpdateMeBodySchema } from '@api/me/me.schemas.ts';
import { validateForm, type Validation } from '../../lib/forms/form-validation.ts';

/** The profile form's rules: the very schema `PATCH /v1/me` validates with. */

export const PROFILE_LABELS = { display_name: 'Display name' } as const;

export type ProfileField = keyof typeof PROFILE_LABELS;

export function validateProfile(values: {
  display_name: string;
}): Validation<{ display_name: string }, ProfileField> {
  return validateForm(UpdateMeBodySchema, values, PROFILE_LABELS);
}
