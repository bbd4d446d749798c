import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { apiFieldErrors, hasErrors, validateForm } from './form-validation.ts';

const schema = z.object({
  name: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(3, 'must be at most 3 characters')),
  size: z.string().check(z.minLength(1, 'is required.')),
});
const labels = { name: 'Name', size: 'Size' };

describe('validateForm', () => {
  it('hands back the parsed data when every rule holds', () => {
    expect(validateForm(schema, { name: 'abc', size: 'L' }, labels)).toEqual({
      ok: true,
      data: { name: 'abc', size: 'L' },
    });
  });

  it("turns each field's first broken rule into a sentence that names it", () => {
    const result = validateForm(schema, { name: 'abcd', size: '' }, labels);

    expect(result).toEqual({
      ok: false,
      errors: { name: 'Name must be at most 3 characters.', size: 'Size is required.' },
    });
    expect(!result.ok && hasErrors(result.errors)).toBe(true);
  });
});

describe('apiFieldErrors', () => {
  it("maps the API's errors[] onto the form's fields", () => {
    const error = new ApiError({
      status: 422,
      code: 'validation_failed',
      detail: 'Some fields are invalid.',
      requestId: 'req-1',
      errors: [
        { path: 'body.name', code: 'too_long', message: 'must be at most 80 characters' },
        { path: 'body.unknown', code: 'unrecognized_keys', message: 'is not allowed' },
      ],
    });

    expect(apiFieldErrors(error, labels)).toEqual({ name: 'Name must be at most 80 characters.' });
  });

  it('finds nothing in other errors', () => {
    expect(apiFieldErrors(new Error('boom'), labels)).toEqual({});
    expect(apiFieldErrors(null, labels)).toEqual({});
  });
});
