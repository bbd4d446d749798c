/** One time limit shared by every step of an exchange: each awaited step races it. */

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

export interface Deadline {
  /** `work`'s result, or a TimeoutError once the limit has passed. */
  race<T>(work: Promise<T>): Promise<T>;
  cancel(): void;
}

export function deadlineIn(ms: number): Deadline {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`No answer within ${ms} ms.`)), ms);
  });
  // Raced only while work is pending; otherwise nobody awaits it, and that is not an error.
  expired.catch(() => undefined);
  return {
    race: <T>(work: Promise<T>) => Promise.race([work, expired]),
    cancel: () => clearTimeout(timer),
  };
}
