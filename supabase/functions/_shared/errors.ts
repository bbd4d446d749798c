/**
 * The error model (docs/product.md#errors): a closed set of codes, one table from code to HTTP status, title
 * and default detail, and one error class that services throw. The HTTP layer turns it into problem+json.
 */
import type { ErrorCode, FieldError, Problem } from './api-types.ts';

export type { ErrorCode, FieldError };
/** Members a problem may carry beyond the standard ones, for one kind of error each. */
export type ProblemExtensions = Pick<Problem, 'current_version'>;

interface ErrorKind {
  status: number;
  title: string;
  detail: string;
}

// `satisfies` keeps this table and the spec's ErrorCode enum exactly in step: a missing or extra code
// fails type checking.
export const ERROR_KINDS = {
  bad_request: { status: 400, title: 'Bad request', detail: 'The request is malformed.' },
  unauthenticated: {
    status: 401,
    title: 'Unauthenticated',
    detail: 'Sign in again, or send a valid API token.',
  },
  forbidden: { status: 403, title: 'Forbidden', detail: 'Your role does not allow this action.' },
  mfa_required: {
    status: 403,
    title: 'MFA required',
    detail: 'This workspace requires two-factor authentication. Verify a second factor and try again.',
  },
  insufficient_scope: { status: 403, title: 'Insufficient scope', detail: 'This API token can only read.' },
  email_not_confirmed: {
    status: 403,
    title: 'E-mail not confirmed',
    detail: 'Confirm your e-mail address with the link we sent you, then accept the invitation again.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    detail: 'Nothing exists at this address, or you cannot see it.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    detail: 'This address does not support this method.',
  },
  slug_taken: { status: 409, title: 'Slug taken', detail: 'Another workspace already uses this slug.' },
  project_key_taken: {
    status: 409,
    title: 'Project key taken',
    detail: 'Another project in this workspace already uses this key.',
  },
  project_archived: {
    status: 409,
    title: 'Project archived',
    detail: 'This project is archived: unarchive it to change it.',
  },
  project_deleted: {
    status: 409,
    title: 'Project deleted',
    detail: 'The project was deleted; what was in it cannot be restored.',
  },
  task_not_deleted: {
    status: 409,
    title: 'Task not deleted',
    detail: 'This task is not deleted; there is nothing to restore.',
  },
  label_exists: {
    status: 409,
    title: 'Label exists',
    detail: 'This workspace already has a label with this name.',
  },
  comment_deleted: {
    status: 409,
    title: 'Comment deleted',
    detail: 'This comment was deleted; a deleted comment cannot be edited.',
  },
  upload_incomplete: {
    status: 409,
    title: 'Upload incomplete',
    detail: 'Nothing has been uploaded to the upload URL yet: upload the file, then complete it.',
  },
  already_member: {
    status: 409,
    title: 'Already a member',
    detail: 'This person is already a member of the workspace.',
  },
  invitation_exists: {
    status: 409,
    title: 'Invitation exists',
    detail: 'This person already has a pending invitation.',
  },
  last_owner: { status: 409, title: 'Last owner', detail: 'A workspace needs at least one owner.' },
  limit_reached: {
    status: 409,
    title: 'Limit reached',
    detail: 'A limit has been reached; GET /v1/meta/limits lists them.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency key in use',
    detail: 'A request with this Idempotency-Key is still running. Retry shortly.',
  },
  invitation_expired: {
    status: 410,
    title: 'Invitation expired',
    detail: 'This invitation has expired. Ask for a new one.',
  },
  invitation_revoked: { status: 410, title: 'Invitation revoked', detail: 'This invitation was revoked.' },
  precondition_failed: {
    status: 412,
    title: 'Precondition failed',
    detail: 'The resource changed since you read it; If-Match does not match its version.',
  },
  payload_too_large: { status: 413, title: 'Payload too large', detail: 'The body is too large.' },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    detail: 'Send the body as JSON, with Content-Type: application/json.',
  },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    detail: 'Some fields are invalid; `errors` names each one.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    detail: 'This Idempotency-Key was already used with a different request.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    detail: 'Too many requests. Try again after Retry-After seconds.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    detail: 'Something went wrong on our side. Quote the request id if you contact us.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    detail: 'A service the API depends on is not reachable right now. Try again shortly.',
  },
} as const satisfies Record<ErrorCode, ErrorKind>;

export type ErrorStatus = (typeof ERROR_KINDS)[ErrorCode]['status'];

export interface AppErrorExtras {
  /** One entry per broken field rule (with `validation_failed` and `bad_request`). */
  errors?: readonly FieldError[];
  /** Headers the answer must carry, such as `Retry-After` or `Allow`. */
  headers?: Readonly<Record<string, string>>;
  /** Extension members of the problem, such as `current_version` with `precondition_failed`. */
  extensions?: ProblemExtensions;
  /** What went wrong underneath; logged, never sent to the client. */
  cause?: unknown;
}

/** An expected failure with a stable code. Its message is the problem's `detail`, shown to people. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly title: string;
  readonly errors: readonly FieldError[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly extensions: ProblemExtensions;

  constructor(code: ErrorCode, detail?: string, extras: AppErrorExtras = {}) {
    const kind = ERROR_KINDS[code];
    super(detail ?? kind.detail, { cause: extras.cause });
    this.code = code;
    this.status = kind.status;
    this.title = kind.title;
    this.errors = extras.errors;
    this.headers = extras.headers ?? {};
    this.extensions = extras.extensions ?? {};
  }

  get detail(): string {
    return this.message;
  }
}
