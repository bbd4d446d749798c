import { entityTooLarge, invalidMimeType } from './errors.ts';

export interface BucketLimits {
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
}

/** The most an upload may hold: the bucket's limit, never above the global one. */
export function maxObjectSize(bucket: BucketLimits, globalLimit: number): number {
  const bucketLimit = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit);
  return bucketLimit === null ? globalLimit : Math.min(bucketLimit, globalLimit);
}

export function assertSizeWithin(size: number, max: number): void {
  if (size > max) throw entityTooLarge();
}

/**
 * Storage's check, quirk included: the MIME type is split on "/" without stripping parameters, so
 * `text/plain;charset=UTF-8` (storage-js's default for strings) does not match `text/plain`, only `text/*`.
 */
export function assertMimeTypeAllowed(bucket: BucketLimits, mimeType: string): void {
  const allowed = bucket.allowed_mime_types;
  if (!allowed || allowed.length === 0) return;
  const [type, subtype] = mimeType.split('/');
  const matches = allowed.some((entry) => {
    const [allowedType, allowedSubtype] = entry.split('/');
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype);
  });
  if (!matches) throw invalidMimeType(mimeType);
}
