/**
 * What the file routes need of Storage: the client, which exists only when the API has a key to call it
 * with (env.ts), and a way to remove objects that must go without failing the request when Storage does not
 * answer: what is queued for removal stays queued (storage-removals.ts), and the sweep queues what no row
 * names (upload-sweep.ts).
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

/**
 * Removes objects; whether Storage did. A failure is logged, never thrown: `afterwards` says what becomes of
 * the objects then.
 */
export async function removeObjects(
  files: FileStore,
  bucket: string,
  paths: readonly string[],
  afterwards: string,
): Promise<boolean> {
  try {
    await storageOf(files).remove(bucket, paths);
    return true;
  } catch (error) {
    files.logger.warn(`could not remove objects; ${afterwards}`, {
      bucket,
      count: paths.length,
      error:
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error),
    });
    return false;
  }
}
