import { UpdateMeBodySchema } from '@api/me/me.schemas.ts';
import { CreateApiTokenBodySchema } from '@api/tokens/tokens.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { validateForm, type Validation } from '../../lib/forms/form-validation.ts';

type CreateApiToken = components['schemas']['CreateApiToken'];

/** The profile form's rules: the very schema `PATCH /v1/me` validates with. */

export const PROFILE_LABELS = { display_name: 'Display name' } as const;

export type ProfileField = keyof typeof PROFILE_LABELS;

export function validateProfile(values: {
  display_name: string;
}): Validation<{ display_name: string }, ProfileField> {
  return validateForm(UpdateMeBodySchema, values, PROFILE_LABELS);
}

/** The token form's rules: the very schema `POST /v1/me/tokens` validates with. */

export const API_TOKEN_LABELS = { name: 'Name', scope: 'Scope', expires_in_days: 'Expiry' } as const;

export type ApiTokenField = keyof typeof API_TOKEN_LABELS;

export function validateApiToken(values: {
  name: string;
  scope: string;
  expires_in_days: number;
}): Validation<CreateApiToken, ApiTokenField> {
  return validateForm(CreateApiTokenBodySchema, values, API_TOKEN_LABELS);
}
