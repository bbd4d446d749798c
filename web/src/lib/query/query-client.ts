import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/api-error.ts';

const MAX_RETRIES = 3;

/** Statuses that say "try again later" rather than "this request is wrong". */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === 'network_error' || TRANSIENT_STATUSES.has(error.status);
}

/** Retry only what may succeed on its own: never a 4xx the caller must fix, nor a bug (`internal`). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isTransient(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
