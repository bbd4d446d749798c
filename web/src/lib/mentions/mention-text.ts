/**
 * A mention as the API writes it (supabase/functions/_shared/mentions.ts, which the web may not import):
 * `<@uuid>`, the uuid its first group.
 */
const MENTION_PATTERN = /<@([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})>/g;

/** How a mention of `userId` is written: what the picker inserts, what the API reads. */
export const mentionOf = (userId: string): string => `<@${userId}>`;

/** A mention as it reads: `@name`, or `@former member` when the name is not known (someone who left). */
export const mentionLabel = (userId: string, nameOf: (userId: string) => string | undefined): string =>
  `@${nameOf(userId.toLowerCase()) ?? 'former member'}`;

/** A piece of a text: words as written, or a mention (its user id, lower case). */
export type MentionPart = { kind: 'text'; text: string } | { kind: 'mention'; userId: string };

/** The text cut into its words and its mentions, in order; no empty pieces. */
export function mentionParts(body: string): MentionPart[] {
  const parts: MentionPart[] = [];
  let last = 0;
  for (const match of body.matchAll(MENTION_PATTERN)) {
    if (match.index > last) parts.push({ kind: 'text', text: body.slice(last, match.index) });
    parts.push({ kind: 'mention', userId: (match[1] ?? '').toLowerCase() });
    last = match.index + match[0].length;
  }
  if (last < body.length) parts.push({ kind: 'text', text: body.slice(last) });
  return parts;
}

/**
 * A text with each `<@uuid>` as `@name`, or `@former member` when the name is not known (someone who left
 * the workspace): a notification's excerpt.
 */
export function mentionText(body: string, nameOf: (userId: string) => string | undefined): string {
  return body.replace(MENTION_PATTERN, (_mention, userId: string) => mentionLabel(userId, nameOf));
}
