/**
 * The `401 unauthenticated` answers, with the `WWW-Authenticate` challenge of RFC 6750 §3: a bare
 * `Bearer` when no credential was sent, `error="invalid_token"` when one was sent and refused.
 */
import { AppError } from '../errors.ts';

export function missingCredentials(detail: string): AppError {
  return new AppError('unauthenticated', detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
}

export function invalidCredentials(detail: string): AppError {
  return new AppError('unauthenticated', detail, {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  });
}
