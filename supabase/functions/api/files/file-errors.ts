/** The errors of an uploaded file (attachment or avatar) that the services and the queries' refusals answer with. */
import { AppError } from '../../_shared/errors.ts';

/** The uploaded file's size is not the one declared; `removed`: the upload was discarded for it. */
export function sizeMismatch(declared?: number, uploaded?: number): AppError {
  const sizes = declared !== undefined && uploaded !== undefined;
  const message = sizes
    ? `the uploaded file has ${uploaded} bytes, not ${declared}`
    : 'the uploaded file does not have the declared size';
  return new AppError(
    'validation_failed',
    sizes
      ? `The uploaded file has ${uploaded} bytes, not the ${declared} declared; it was removed.`
      : 'The uploaded file does not have the declared size; it was removed.',
    { errors: [{ path: 'size_bytes', code: 'size_mismatch', message }] },
  );
}

/** The uploaded file's first bytes are not those of its declared type. */
export function contentMismatch(type: string): AppError {
  return new AppError(
    'unsupported_media_type',
    `The uploaded file is not ${describeType(type)} (${type}), as it was declared; it was removed.`,
  );
}

/**
 * The uploaded file was sent as (so Storage keeps it under, and would serve it as) another type than the
 * one declared; `removed`: the upload was discarded for it. Without the types: the database's own check,
 * which backs up the service's.
 */
export function storedTypeMismatch(types?: { declared: string; stored: string | null }): AppError {
  if (!types)
    return new AppError(
      'unsupported_media_type',
      'The uploaded file was not sent as the type it was declared with.',
    );
  return new AppError(
    'unsupported_media_type',
    `The uploaded file was sent as ${types.stored ?? '(no type)'}, not as ${types.declared}, the type it was declared with; it was removed. Upload it with Content-Type: ${types.declared}.`,
  );
}

export function typeNotAllowed(type: string, allowed: string): AppError {
  return new AppError(
    'unsupported_media_type',
    `Files of type ${type || '(none)'} cannot be uploaded here. Allowed: ${allowed}.`,
  );
}

export function fileTooLarge(what: string, maxBytes: number, declared: number): AppError {
  return new AppError(
    'payload_too_large',
    `${what} may be at most ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MiB); this one has ${declared}.`,
  );
}

const TYPE_NAMES: Record<string, string> = {
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'image/gif': 'a GIF image',
  'image/webp': 'a WebP image',
  'application/pdf': 'a PDF document',
  'application/zip': 'a ZIP archive',
  'application/json': 'UTF-8 text',
  'text/plain': 'UTF-8 text',
  'text/markdown': 'UTF-8 text',
  'text/csv': 'UTF-8 text',
};

const describeType = (type: string): string => TYPE_NAMES[type] ?? 'a file of its type';
