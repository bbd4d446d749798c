/**
 * The rules for a personal API token (docs/product.md#validation, #limits), written once: the API validates
 * `POST /v1/me/tokens` with them and the web's token form does too. Imports nothing but zod, the limits and
 * the shared vocabulary, so the browser bundle can import this file as is.
 */
import { z } from 'zod';
import { API_TOKEN_SCOPES } from '../../_shared/vocabulary/spec-values.ts';
import { API_TOKEN_LIFETIME_DAYS } from '../../_shared/limits.ts';

export const API_TOKEN_NAME_LENGTH = { min: 1, max: 80 } as const;
export { API_TOKEN_SCOPES };

export const ApiTokenNameSchema = z
  .string()
  .trim()
  .min(API_TOKEN_NAME_LENGTH.min, 'must not be empty')
  .max(API_TOKEN_NAME_LENGTH.max, `must be at most ${API_TOKEN_NAME_LENGTH.max} characters`);

export const ApiTokenScopeSchema = z.enum(API_TOKEN_SCOPES, 'must be "read" or "write"');

export const ApiTokenLifetimeSchema = z
  .number('must be a number of days')
  .int('must be a whole number of days')
  .min(API_TOKEN_LIFETIME_DAYS.min, `must be at least ${API_TOKEN_LIFETIME_DAYS.min} day`)
  .max(API_TOKEN_LIFETIME_DAYS.max, `must be at most ${API_TOKEN_LIFETIME_DAYS.max} days`);

/** `POST /v1/me/tokens`; the lifetime defaults to 90 days. */
export const CreateApiTokenBodySchema = z.strictObject({
  name: ApiTokenNameSchema,
  scope: ApiTokenScopeSchema,
  expires_in_days: ApiTokenLifetimeSchema.default(API_TOKEN_LIFETIME_DAYS.default),
});
