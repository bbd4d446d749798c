import { describe, expect, it } from 'vitest';
import { AppError, ERROR_KINDS } from './errors.ts';
import type { ErrorCode } from './errors.ts';

// docs/product.md#errors, restated by hand so that a change to the table has to be a deliberate one.
const SPEC_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  mfa_required: 403,
  insufficient_scope: 403,
  email_not_confirmed: 403,
  not_found: 404,
  method_not_allowed: 405,
  slug_taken: 409,
  project_key_taken: 409,
  project_archived: 409,
  project_deleted: 409,
  task_not_deleted: 409,
  label_exists: 409,
  comment_deleted: 409,
  upload_incomplete: 409,
  already_member: 409,
  invitation_exists: 409,
  last_owner: 409,
  limit_reached: 409,
  idempotency_key_in_use: 409,
  invitation_expired: 410,
  invitation_revoked: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

describe('the error table', () => {
  it('maps every code to the status docs/product.md#errors gives it', () => {
    const statuses = Object.fromEntries(
      Object.entries(ERROR_KINDS).map(([code, kind]) => [code, kind.status]),
    );
    expect(statuses).toEqual(SPEC_STATUS);
  });

  it('gives every code a title and a default detail written for people', () => {
    for (const kind of Object.values(ERROR_KINDS)) {
      expect(kind.title).toMatch(/^[A-Z]/);
      expect(kind.detail).toMatch(/^[A-Z].*\.$/);
    }
  });
});

describe('AppError', () => {
  it('takes status and title from the table and uses the default detail when none is given', () => {
    const error = new AppError('not_found');
    expect(error).toMatchObject({ code: 'not_found', status: 404, title: 'Not found' });
    expect(error.detail).toBe(ERROR_KINDS.not_found.detail);
    expect(error.headers).toEqual({});
    expect(error.errors).toBeUndefined();
  });

  it('keeps a specific detail, field errors, headers and the cause', () => {
    const cause = new Error('connect ECONNREFUSED');
    const errors = [{ path: 'body.name', code: 'required', message: 'Required' }];
    const error = new AppError('unavailable', 'Down.', { errors, headers: { 'Retry-After': '5' }, cause });
    expect(error).toMatchObject({ status: 503, detail: 'Down.', errors, headers: { 'Retry-After': '5' } });
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });
});
