/**
 * The status a source's column most likely means, from its name: "Doing" is in progress, "Shipped" is
 * done, "Icebox" is the backlog. A name that says nothing known is To do, wherever the column is: a
 * board's first list is as often "Inbox" or "This week" as it is a backlog, and the person importing
 * sees the suggestion and may change it.
 */
import type { TaskStatus } from '../../_shared/api-types.ts';
import { TASK_STATUSES } from '../../_shared/vocabulary/spec-values.ts';

const WORDS_BY_STATUS: readonly (readonly [TaskStatus, readonly string[]])[] = [
  ['backlog', ['backlog', 'icebox', 'ideas', 'idea', 'someday', 'later', 'parking lot']],
  ['todo', ['to do', 'todo', 'next', 'up next', 'open', 'new', 'planned', 'ready']],
  ['in_progress', ['doing', 'in progress', 'wip', 'work in progress', 'started', 'active', 'ongoing']],
  ['in_review', ['review', 'in review', 'code review', 'qa', 'testing', 'in testing', 'to review']],
  ['done', ['done', 'complete', 'completed', 'shipped', 'finished', 'closed', 'released', 'resolved']],
  ['canceled', ['canceled', 'cancelled', "won't do", 'wont do', 'abandoned', 'dropped', 'rejected']],
];

/** Lower case, `_`/`-` as spaces, punctuation and emoji around the words dropped, spaces collapsed. */
export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The status a name spells exactly (`in_progress`, "In progress", "in review"), if any. */
export function statusNamed(name: string): TaskStatus | null {
  const normalized = normalizeName(name).replace(/ /g, '_');
  return TASK_STATUSES.find((status) => status === normalized) ?? null;
}

export function suggestStatus(name: string): TaskStatus {
  const exact = statusNamed(name);
  if (exact) return exact;
  const normalized = normalizeName(name);
  for (const [status, words] of WORDS_BY_STATUS) {
    if (words.includes(normalized)) return status;
  }
  // "Sprint 3 – in progress", "Done ✅ (Nov)": a known phrase as whole words within the name.
  const padded = ` ${normalized} `;
  for (const [status, words] of WORDS_BY_STATUS) {
    if (words.some((word) => padded.includes(` ${word} `))) return status;
  }
  return 'todo';
}
