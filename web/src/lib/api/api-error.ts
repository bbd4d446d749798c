import type { components } from '@api-spec/schema.d.ts';

type FieldError = components['schemas']['FieldError'];

/** Codes the client assigns when the API gave no usable answer. */
type ClientErrorCode = 'network_error' | 'invalid_response';

export type ApiErrorCode = components['schemas']['ErrorCode'] | ClientErrorCode;

interface ApiErrorFields {
  status: number;
  code: ApiErrorCode | (string & {});
  detail: string;
  requestId: string | null;
  errors: readonly FieldError[];
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status, or 0 when there was no usable HTTP answer (network failure, unreadable body). */
  readonly status: number;
  /** A known code, or one the API added after this client was built. */
  readonly code: ApiErrorFields['code'];
  /** A sentence meant for people. */
  readonly detail: string;
  readonly requestId: string | null;
  /** One entry per field that broke a rule (with `validation_failed`), otherwise empty. */
  readonly errors: readonly FieldError[];

  constructor({ status, code, detail, requestId, errors, cause }: ApiErrorFields) {
    super(detail, { cause });
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.requestId = requestId;
    this.errors = errors;
  }
}

interface Problem {
  code: string;
  detail: string;
  request_id?: string | undefined;
  errors: FieldError[];
}

/**
 * The problem+json the API promises, or null for anything else. Checked by hand, not with zod: every page
 * loads this, and the board's first load carries no zod (decision 0028).
 */
function problemOf(body: unknown): Problem | null {
  if (!isRecord(body) || typeof body['code'] !== 'string' || typeof body['detail'] !== 'string') return null;
  const requestId = body['request_id'];
  if (requestId !== undefined && typeof requestId !== 'string') return null;
  const errors = body['errors'] === undefined ? [] : body['errors'];
  if (!Array.isArray(errors) || !errors.every(isFieldError)) return null;
  const fields = errors.map(({ path, code, message }) => ({ path, code, message }));
  return { code: body['code'], detail: body['detail'], request_id: requestId, errors: fields };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFieldError(value: unknown): value is FieldError {
  return (
    isRecord(value) &&
    typeof value['path'] === 'string' &&
    typeof value['code'] === 'string' &&
    typeof value['message'] === 'string'
  );
}

const CODE_BY_STATUS: Partial<Record<number, ApiErrorCode>> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  502: 'unavailable',
  503: 'unavailable',
  504: 'unavailable',
};

function codeForStatus(status: number): ApiErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad_request');
}

/** Turns an error answer into an ApiError, whether or not its body is the problem+json the API promises. */
export function apiErrorFromResponse(body: unknown, response: Response): ApiError {
  const headerRequestId = response.headers.get('X-Request-Id');
  const problem = problemOf(body);
  if (problem) {
    const { code, detail, request_id, errors } = problem;
    return new ApiError({
      status: response.status,
      code,
      detail,
      requestId: request_id ?? headerRequestId,
      errors,
    });
  }
  // A proxy, gateway or crash answered instead of the API: an HTML page, plain text, or someone else's JSON.
  const reason = `${response.status} ${response.statusText}`.trim();
  return new ApiError({
    status: response.status,
    code: codeForStatus(response.status),
    detail: `The API answered ${reason} without details.`,
    requestId: headerRequestId,
    errors: [],
  });
}

/** Turns a failed request (no answer, or an answer that is not JSON) into an ApiError. */
export function apiErrorFromFailure(cause: unknown): ApiError {
  if (cause instanceof ApiError) return cause;
  if (cause instanceof SyntaxError) {
    return new ApiError({
      status: 0,
      code: 'invalid_response',
      detail: 'The API sent an answer that is not JSON. Is VITE_SUPABASE_URL pointing at the right server?',
      requestId: null,
      errors: [],
      cause,
    });
  }
  return new ApiError({
    status: 0,
    code: 'network_error',
    detail: 'Could not reach the API. Check your connection and try again.',
    requestId: null,
    errors: [],
    cause,
  });
}

/** What to tell people about an error: the API's own sentence when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  return 'Something unexpected went wrong. Try again, or reload the page.';
}
