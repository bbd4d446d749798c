/**
 * The API runs at most two text searches (`q`) per user at once and answers a third `429`
 * (`concurrent_task_searches_per_user`). A board with a search asks for six columns and their counts at
 * once, so its requests with `q` wait here for one of two slots instead of being refused.
 */
const SLOTS = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function acquire(): Promise<void> {
  if (running < SLOTS) {
    running += 1;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

/** Runs `request` at once when it has no search text, else in one of the two search slots. */
export async function inSearchSlot<T>(q: string | undefined, request: () => Promise<T>): Promise<T> {
  if (q === undefined) return request();
  await acquire();
  try {
    return await request();
  } finally {
    release();
  }
}
