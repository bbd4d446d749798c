import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../gateway/http.ts';

const API_VERSION_HEADER = 'x-supabase-api-version';

/** An error GoTrue would answer with: an HTTP status, a stable `code` and a human message. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const invalidCredentials = () =>
  new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
export const validationFailed = (message: string) => new AuthError(400, 'validation_failed', message);

/**
 * Answers as GoTrue does: `{code, message}` plus the echoed `X-Supabase-Api-Version` when the client sent
 * that header (auth-js only reads `code` when it sees the echo), else the legacy `{code, error_code, msg}`.
 */
export function sendAuthError(req: IncomingMessage, res: ServerResponse, error: AuthError): void {
  const version = req.headers[API_VERSION_HEADER];
  const headers: Record<string, string> = { 'x-sb-error-code': error.code };
  if (typeof version === 'string' && version !== '') {
    headers['X-Supabase-Api-Version'] = version;
    sendJson(res, error.status, { code: error.code, message: error.message, ...error.extra }, headers);
    return;
  }
  const legacy = { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
  sendJson(res, error.status, legacy, headers);
}
