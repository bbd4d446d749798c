import type { ServerResponse } from 'node:http';
import { sendJson } from '../gateway/http.ts';

/**
 * An error as Storage answers it: HTTP 400 for nearly everything, the logical status only in the body's
 * string `statusCode` (docs/supabase-protocols.md#headers-and-errors).
 */
export class StorageError extends Error {
  constructor(
    readonly statusCode: string,
    readonly code: string,
    readonly error: string,
    message: string,
    readonly httpStatus = 400,
  ) {
    super(message);
  }
}

export const noSuchKey = () => new StorageError('404', 'NoSuchKey', 'not_found', 'Object not found');
export const noSuchBucket = () =>
  new StorageError('404', 'NoSuchBucket', 'Bucket not found', 'Bucket not found');
export const accessDenied = (message: string) =>
  new StorageError('403', 'AccessDenied', 'Unauthorized', message);
export const rowLevelSecurityDenied = () => accessDenied('new row violates row-level security policy');
export const objectExists = () =>
  new StorageError('409', 'KeyAlreadyExists', 'Duplicate', 'The resource already exists');
export const bucketExists = () =>
  new StorageError('409', 'BucketAlreadyExists', 'Duplicate', 'The resource already exists');
export const entityTooLarge = () =>
  new StorageError(
    '413',
    'EntityTooLarge',
    'Payload too large',
    'The object exceeded the maximum allowed size',
  );
export const invalidMimeType = (mimeType: string) =>
  new StorageError('415', 'InvalidMimeType', 'invalid_mime_type', `mime type ${mimeType} is not supported`);
export const invalidJwt = (message: string) => new StorageError('400', 'InvalidJWT', 'invalid_jwt', message);
export const invalidSignature = () =>
  new StorageError('400', 'InvalidSignature', 'invalid_signature', 'The url do not match the signature');
export const bucketNotEmpty = () =>
  new StorageError(
    '409',
    'ResourceNotEmpty',
    'Bucket not empty',
    'The bucket you tried to delete is not empty',
  );
export const invalidRequest = (message: string) =>
  new StorageError('400', 'InvalidRequest', 'Bad Request', message);
export const invalidKey = (key: string) =>
  new StorageError('400', 'InvalidKey', 'Invalid Input', `Invalid key: ${key}`);
export const invalidBucketName = (name: string) =>
  new StorageError('400', 'InvalidBucketName', 'Invalid Input', `Bucket name invalid: ${name}`);
export const notFound = () => new StorageError('404', 'NotFound', 'Not Found', 'Route not found', 404);
export const rangeNotSatisfiable = () =>
  new StorageError('416', 'InvalidRange', 'invalid_range', 'The requested range is not satisfiable', 416);
export const databaseTimeout = () =>
  new StorageError('544', 'DatabaseTimeout', 'Database timeout', 'The database did not answer in time', 544);

export function sendStorageError(
  res: ServerResponse,
  error: StorageError,
  headers: Record<string, string> = {},
) {
  const body = { statusCode: error.statusCode, code: error.code, error: error.error, message: error.message };
  sendJson(res, error.httpStatus, body, headers);
}

const RLS_VIOLATION = '42501';
const UNIQUE_VIOLATION = '23505';
const QUERY_CANCELED = '57014';

/** What a refused statement means to the caller; null for anything Storage would answer 500 for. */
export function fromDatabaseError(error: unknown, onDuplicate: () => StorageError): StorageError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === RLS_VIOLATION) return rowLevelSecurityDenied();
  if (code === UNIQUE_VIOLATION) return onDuplicate();
  if (code === QUERY_CANCELED) return databaseTimeout();
  return null;
}
