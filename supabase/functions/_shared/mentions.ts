/**
 * Mentions in markdown (docs/notifications.md): `<@USER_ID>`, the member's uuid between `<@` and `>`.
 * Postgres reads them with the same pattern (`private.mentioned_user_ids`), to notify whoever is
 * mentioned; the web shows each as a chip with the member's current name. No imports, so the browser
 * bundle can import this file as is.
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** One mention; the uuid is its first group. Global: use with `matchAll` or `split`. */
export const MENTION_PATTERN = new RegExp(`<@(${UUID})>`, 'g');

/** How a mention of `userId` is written. */
export const mentionOf = (userId: string): string => `<@${userId}>`;

/** How many mentions `text` holds, repeats counted (MENTIONS_PER_TEXT caps it). */
export const countMentions = (text: string): number => [...text.matchAll(MENTION_PATTERN)].length;

/** The distinct users `text` mentions, lower case, in order of first mention. */
export const mentionedUserIds = (text: string): string[] => [
  ...new Set([...text.matchAll(MENTION_PATTERN)].map((match) => (match[1] ?? '').toLowerCase())),
];
