/**
 * Half-written text kept in the browser's localStorage until it is saved or discarded: a task's
 * description, the new comment, or a comment being edited. One entry per person, workspace, task and
 * field, so a second account in the same browser never reads another's (docs/decisions/0039-drafts-and-the-open-panel.md).
 */

/** Which text of a task a draft is of: `comment:<id>` is an edit of that comment in progress. */
export type DraftField = 'description' | 'comment:new' | `comment:${string}`;

/** Whose draft of which task. */
export interface DraftPlace {
  userId: string;
  workspace: string;
  taskId: string;
}

/** What the field held on the server when the draft began, so a change made since is not overwritten. */
export interface DraftBase {
  text: string;
  version: number;
}

export interface Draft {
  text: string;
  base: DraftBase | null;
  /** When it was last written, in milliseconds since the epoch. */
  savedAt: number;
}

const PREFIX = 'tasklane:draft:';

/** A draft nobody came back to in 30 days is dropped when next read. */
export const DRAFT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export function draftKey(place: DraftPlace, field: DraftField): string {
  return `${PREFIX}${place.userId}:${place.workspace}:${place.taskId}:${field}`;
}

/** The draft under `key`, or null (none, unreadable, or too old: then it is removed). */
export function readDraft(storage: Storage, key: string, now = Date.now()): Draft | null {
  const stored = attempt(() => storage.getItem(key));
  if (!stored) return null;
  const draft = parseDraft(stored);
  if (!draft || now - draft.savedAt > DRAFT_LIFETIME_MS) {
    attempt(() => storage.removeItem(key));
    return null;
  }
  return draft;
}

/**
 * Writes the draft at once (a reload right after a key press keeps it); a full or refused storage keeps
 * nothing rather than break typing.
 */
export function writeDraft(storage: Storage, key: string, draft: Draft): void {
  attempt(() => storage.setItem(key, JSON.stringify(draft)));
}

export function removeDraft(storage: Storage, key: string): void {
  attempt(() => storage.removeItem(key));
}

/** Removes every draft in the browser, whoever wrote it: on sign-out. */
export function clearDrafts(storage: Storage): void {
  const keys = attempt(() => Object.keys(storage)) ?? [];
  for (const key of keys) if (key.startsWith(PREFIX)) attempt(() => storage.removeItem(key));
}

function parseDraft(stored: string): Draft | null {
  const value = attempt(() => JSON.parse(stored) as unknown);
  if (typeof value !== 'object' || value === null) return null;
  const { text, base, savedAt } = value as Record<string, unknown>;
  if (typeof text !== 'string' || typeof savedAt !== 'number') return null;
  return { text, base: isBase(base) ? base : null, savedAt };
}

function isBase(value: unknown): value is DraftBase {
  if (typeof value !== 'object' || value === null) return false;
  const { text, version } = value as Record<string, unknown>;
  return typeof text === 'string' && typeof version === 'number';
}

/** Storage may be off or full (private windows, quotas): then drafts are simply not kept. */
function attempt<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}

/** The place of a task's drafts, or null while the signed-in person is not known (then none are kept). */
export function draftPlace(userId: string | null, workspace: string, taskId: string): DraftPlace | null {
  return userId === null ? null : { userId, workspace, taskId };
}
