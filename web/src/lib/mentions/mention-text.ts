/**
 * A mention as the API writes it (supabase/functions/_shared/mentions.ts, which the web may not import):
 * `<@uuid>`, the uuid its first group.
 */
const MENTION_PATTERN = /<@([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})>/g;

/**
 * A text with each `<@uuid>` as `@name`, or `@former member` when the name is not known (someone who left
 * the workspace): a notification's excerpt, a comment as the thread shows it.
 */
export function mentionText(body: string, nameOf: (userId: string) => string | undefined): string {
  return body.replace(
    MENTION_PATTERN,
    (_mention, userId: string) => `@${nameOf(userId.toLowerCase()) ?? 'former member'}`,
  );
}
