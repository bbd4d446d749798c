/**
 * A cap on the text searches (`q`) one user has running at once on this instance of the function. A
 * search may read every task of a project, bounded only by the statement timeout; a user who sent many
 * at once would take every database connection of the instance, and the cores behind them, from
 * everybody else.
 */
import { AppError } from '../../_shared/errors.ts';

/** When to try again: a search ends within the statement timeout, most within a fraction of a second. */
const RETRY_AFTER_SECONDS = 1;

export interface SearchSlots {
  /** Runs `search` in one of the user's slots; `429 rate_limited` when they are all taken. */
  run<T>(userId: string, search: () => Promise<T>): Promise<T>;
}

export function searchSlots(perUser: number): SearchSlots {
  const taken = new Map<string, number>();
  const release = (userId: string) => {
    const left = (taken.get(userId) ?? 1) - 1;
    if (left > 0) taken.set(userId, left);
    else taken.delete(userId);
  };
  return {
    async run(userId, search) {
      const running = taken.get(userId) ?? 0;
      if (running >= perUser) throw tooManySearches(perUser);
      taken.set(userId, running + 1);
      try {
        return await search();
      } finally {
        release(userId);
      }
    },
  };
}

function tooManySearches(perUser: number): AppError {
  return new AppError(
    'rate_limited',
    `You already have ${perUser} task searches running, the limit (concurrent_task_searches_per_user). Try again when one has finished.`,
    { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}
