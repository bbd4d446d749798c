/**
 * A task's texts brought within the API's limits, as every reader does: a title is trimmed and cut to
 * its longest, a description cut to its longest, each cut with a warning; an empty title is an error
 * for its row, which the reader then skips.
 */
import { TASK_DESCRIPTION_MAX_LENGTH, TASK_TITLE_LENGTH } from '../tasks/tasks.schemas.ts';
import type { ImportProblem } from './import-source.ts';

/** The first `max` UTF-16 units of `text`, never splitting a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? max - 1 : max);
}

/** The title to import, or null (with an error) when there is none. */
export function fitTitle(raw: string, location: string, problems: ImportProblem[]): string | null {
  const title = raw.trim();
  if (title.length < TASK_TITLE_LENGTH.min) {
    problems.push({ severity: 'error', location, message: 'has no title: the row is skipped' });
    return null;
  }
  if (title.length <= TASK_TITLE_LENGTH.max) return title;
  problems.push({
    severity: 'warning',
    location,
    message: `title is ${title.length} characters long: cut to ${TASK_TITLE_LENGTH.max}`,
  });
  return cutText(title, TASK_TITLE_LENGTH.max).trimEnd();
}

export function fitDescription(raw: string, location: string, problems: ImportProblem[]): string {
  if (raw.length <= TASK_DESCRIPTION_MAX_LENGTH) return raw;
  problems.push({
    severity: 'warning',
    location,
    message: `description is ${raw.length} characters long: cut to ${TASK_DESCRIPTION_MAX_LENGTH}`,
  });
  return cutText(raw, TASK_DESCRIPTION_MAX_LENGTH);
}

/** A short quote of a value for a message: at most 40 characters, on one line. */
export function quote(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > 40 ? `${flat.slice(0, 39)}…` : flat);
}
