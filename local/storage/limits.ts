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

/** `type/subtype` and nothing else: RFC 9110 token characters on each side of one `/`. */
const PLAIN_MIME_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Storage's check, made stricter (docs/decisions/0023, 0031). Storage splits the type on "/" and compares
 * the first two parts, so `image/gif/,text/html` passes a bucket that allows `image/gif` and is then served
 * with that type, which a browser renders as HTML. Here a bucket with an allow-list takes only a plain
 * `type/subtype`: no parameters (so `text/plain;charset=UTF-8`, storage-js's default for strings, fails a
 * bucket that allows `text/plain`, as it does in Storage), no second `/`, no comma, no space.
 */
export function assertMimeTypeAllowed(bucket: BucketLimits, mimeType: string): void {
  const allowed = bucket.allowed_mime_types;
  if (!allowed || allowed.length === 0) return;
  if (!PLAIN_MIME_TYPE.test(mimeType)) throw invalidMimeType(mimeType);
  const [type, subtype] = mimeType.split('/');
  const matches = allowed.some((entry) => {
    const [allowedType, allowedSubtype] = entry.split('/');
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype);
  });
  if (!matches) throw invalidMimeType(mimeType);
}
