/** Which database failures mean "the database is unavailable" rather than "this query is wrong". */
import { AppError } from './errors.ts';

export const DATABASE_RETRY_AFTER_SECONDS = 5;

// SQLSTATEs: query_canceled (statement_timeout), idle_in_transaction_session_timeout.
const CANCELLED_SQLSTATES = new Set(['57014', '25P03']);
// SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_EXCEPTION_CLASS = '08';
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// node-postgres reports a lost or never-made connection with plain Errors that carry no code.
const LOST_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  return (
    UNAVAILABLE_SQLSTATES.has(code) ||
    code.startsWith(CONNECTION_EXCEPTION_CLASS) ||
    NETWORK_ERROR_CODES.has(code) ||
    LOST_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))
  );
}

export function databaseUnavailable(cause: unknown): AppError {
  return new AppError('unavailable', 'The database is not reachable right now. Try again shortly.', {
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** Whether Postgres ended the statement (or the idle transaction) because it ran out of time. */
export function isStatementCancelled(error: unknown): boolean {
  return error instanceof Error && 'code' in error && CANCELLED_SQLSTATES.has(String(error.code));
}

export function statementCancelled(cause: unknown): AppError {
  return new AppError(
    'unavailable',
    'The database took too long over this request and stopped it. Try again shortly, or ask for less (a narrower filter, a shorter search).',
    { headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) }, cause },
  );
}

/** A database failure as the API answers it: `unavailable` when it is the database's, else as it is. */
export function asDatabaseFailure(error: unknown): unknown {
  if (isStatementCancelled(error)) return statementCancelled(error);
  return isDatabaseUnavailable(error) ? databaseUnavailable(error) : error;
}
