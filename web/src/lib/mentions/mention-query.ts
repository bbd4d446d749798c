import { mentionOf } from './mention-text.ts';

/** An `@` being typed: where it is in the text, and what follows it up to the caret. */
export interface MentionQuery {
  /** The index of the `@`. */
  start: number;
  /** The index of the caret (the end of the query). */
  end: number;
  /** The letters typed after the `@`, as typed. */
  query: string;
}

/** Longer than any name's first word; past it an `@` is an address or a handle, not a mention. */
const MAX_QUERY = 32;

/**
 * The `@query` the caret is at the end of, or null. The `@` begins the text or follows a space, a line
 * break or an opening bracket (so `maya@example.com` and a written `<@uuid>` open nothing), and what follows
 * it has no space. A selection (start ≠ end) is not a caret: null.
 */
export function findMentionQuery(text: string, selectionStart: number, selectionEnd = selectionStart) {
  if (selectionStart !== selectionEnd) return null;
  const caret = selectionStart;
  for (let at = caret - 1; at >= 0 && caret - at <= MAX_QUERY + 1; at--) {
    const char = text.charAt(at);
    if (/\s/.test(char)) return null;
    if (char !== '@') continue;
    const before = at === 0 ? '' : text.charAt(at - 1);
    if (before !== '' && !/[\s([{]/.test(before)) return null;
    return { start: at, end: caret, query: text.slice(at + 1, caret) } satisfies MentionQuery;
  }
  return null;
}

/**
 * The text with the `@query` replaced by the mention of `userId` and a space, and where the caret goes:
 * right after that space. A space already after the query is reused rather than doubled.
 */
export function insertMention(text: string, at: MentionQuery, userId: string) {
  const rest = text.slice(at.end);
  const token = mentionOf(userId);
  const spaced = rest.startsWith(' ') ? token : `${token} `;
  const before = text.slice(0, at.start) + spaced;
  return { text: before + rest, caret: before.length + (spaced === token ? 1 : 0) };
}

/** Someone who can be mentioned. */
export interface Mentionable {
  user_id: string;
  display_name: string;
  email: string;
}

/**
 * The members whose name (any word of it) or e-mail begins with the query, case and accents aside; those
 * whose name begins with it first, then by name. An empty query lists everyone.
 */
export function matchMembers<M extends Mentionable>(members: readonly M[], query: string): M[] {
  const q = fold(query);
  const rank = (member: M): number => {
    const name = fold(member.display_name);
    if (name.startsWith(q)) return 0;
    if (name.split(/[\s._-]+/).some((word) => word.startsWith(q))) return 1;
    if (fold(member.email).startsWith(q)) return 2;
    return -1;
  };
  return members
    .map((member) => ({ member, rank: rank(member) }))
    .filter(({ rank }) => rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.member.display_name.localeCompare(b.member.display_name))
    .map(({ member }) => member);
}

const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
