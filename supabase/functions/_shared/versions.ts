/**
 * Versions and conditional writes, the part services and queries see (docs/decisions/0006). Every
 * resource has an integer `version` that each change bumps. A PATCH or DELETE may name the versions it
 * was made against (`If-Match`); the queries module then writes with the version in the same statement,
 *
 *   update … where id = $1 and ($2::integer[] is null or version = any($2::integer[])) returning …
 *
 * so of two concurrent writes against the same version exactly one wins: the other waits for its row
 * lock, sees the bumped version and changes nothing. When a write changed nothing, the service asks
 * for the row's current version and throws `conditionalWriteFailure(current)`.
 */
import { AppError } from './errors.ts';

/** The versions a write may apply to; null when any will do (no If-Match, or `If-Match: *`). */
export type ExpectedVersion = readonly number[] | null;

/**
 * Why a conditional write changed no row: the row does not exist or the caller cannot see it (404, with
 * `notFoundDetail`), or it has another version than expected (412 naming the current one).
 */
export function conditionalWriteFailure(
  currentVersion: number | undefined,
  notFoundDetail?: string,
): AppError {
  return currentVersion === undefined
    ? new AppError('not_found', notFoundDetail)
    : preconditionFailed(currentVersion);
}

export function preconditionFailed(currentVersion: number): AppError {
  return new AppError(
    'precondition_failed',
    `The resource is at version ${currentVersion}, not the one If-Match names: it changed since you read it.`,
    { extensions: { current_version: currentVersion } },
  );
}

/** Whether a resource at `currentVersion` satisfies `expected` (any version does when it is null). */
export function isExpectedVersion(currentVersion: number, expected: ExpectedVersion): boolean {
  return expected === null || expected.includes(currentVersion);
}

/**
 * `412` unless the resource is at an expected version: for the writes that check it before acting (an
 * empty merge patch, a revoke that is already done) rather than in their statement.
 */
export function requireExpectedVersion(currentVersion: number, expected: ExpectedVersion): void {
  if (!isExpectedVersion(currentVersion, expected)) throw preconditionFailed(currentVersion);
}
