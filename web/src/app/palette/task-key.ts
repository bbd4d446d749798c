import { isProjectKey } from '@shared/vocabulary/project-key.ts';

/** A task key as someone types it ("web-12", " WEB-12 "), upper-cased; null when the text is not one. */
export function parseTaskKey(text: string): string | null {
  const match = /^([^-]+)-([1-9][0-9]{0,9})$/.exec(text.trim());
  const key = match?.[1]?.toUpperCase();
  return key !== undefined && isProjectKey(key) ? `${key}-${match?.[2]}` : null;
}
