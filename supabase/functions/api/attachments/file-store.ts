/**
 * What the file routes need of Storage: the client, which exists only when the API has a key to call it
 * with (env.ts), and a way to remove objects that must go without failing the request when Storage does not
 * answer: an object left behind is found and removed by the upload sweep (upload-sweep.ts).
 */
import { AppError } from '../../_shared/errors.ts';
import type { Logger } from '../../_shared/logger.ts';
import type { StorageClient } from '../../_shared/storage.ts';

export interface FileStore {
  storage: StorageClient | undefined;
  logger: Logger;
}

export function storageOf({ storage }: FileStore): StorageClient {
  if (storage) return storage;
  throw new AppError('unavailable', 'File storage is not configured for this API.', {
    cause: new Error('neither SUPABASE_SECRET_KEYS nor SUPABASE_SERVICE_ROLE_KEY is set'),
  });
}

/** Removes objects, logging instead of failing when Storage cannot: the sweep removes them later. */
export async function removeObjects(
  files: FileStore,
  bucket: string,
  paths: readonly string[],
): Promise<void> {
  try {
    await storageOf(files).remove(bucket, paths);
  } catch (error) {
    files.logger.warn('could not remove objects; the upload sweep will', {
      bucket,
      count: paths.length,
      error:
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error),
    });
  }
}
