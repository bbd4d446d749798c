import { invalidBucketName, invalidRequest } from './errors.ts';
import { parseFileSize } from './file-size.ts';

/** Storage's isValidBucketName: 1 to 100 of these ASCII characters, never a slash. */
const BUCKET_NAME = /^[\w!\-.*'() &$@=;:+,?]{1,100}$/;

export function bucketName(value: unknown): string {
  if (typeof value !== 'string' || !BUCKET_NAME.test(value)) throw invalidBucketName(String(value));
  return value;
}

/** `file_size_limit` as a number of bytes or a string such as "1MB" or "50MiB"; null for no limit. */
export function fileSizeLimit(value: unknown): number | null {
  if (value === null || value === 0 || value === '') return null;
  const bytes =
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0
      ? value
      : typeof value === 'string'
        ? parseFileSize(value)
        : null;
  if (bytes === null) throw invalidRequest('file_size_limit must be a number of bytes or a size like "1MB"');
  return bytes;
}

const MIME_TYPE = /^[\w.+-]+\/[\w.+*-]+$/;

export function allowedMimeTypes(value: unknown): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string' && MIME_TYPE.test(entry))) {
    throw invalidRequest('allowed_mime_types must be a list of MIME types such as image/png or image/*');
  }
  return value.length === 0 ? null : (value as string[]);
}

/** What a create or update names; undefined for what it leaves as it is. */
export interface BucketSettings {
  public?: boolean;
  fileSizeLimit?: number | null;
  allowedMimeTypes?: string[] | null;
}

export function bucketSettings(body: Record<string, unknown>): BucketSettings {
  const settings: BucketSettings = {};
  if (body.public !== undefined) settings.public = body.public === true;
  if (body.file_size_limit !== undefined) settings.fileSizeLimit = fileSizeLimit(body.file_size_limit);
  if (body.allowed_mime_types !== undefined)
    settings.allowedMimeTypes = allowedMimeTypes(body.allowed_mime_types);
  return settings;
}
