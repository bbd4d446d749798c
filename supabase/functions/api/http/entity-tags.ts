/**
 * Entity tags (RFC 9110 §8.8.3) as Tasklane uses them: a resource's `version` is its strong ETag,
 * `"<version>"`. Strong, because If-Match compares strongly (§13.1.1): a weak tag could never satisfy
 * it. That holds since every change to a resource bumps its version, so equal versions mean equal
 * representations of that resource for that caller.
 */

export interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** `*`, or the list of entity tags an If-Match or If-None-Match field holds. */
export type EntityTagCondition = { any: true } | { any: false; tags: EntityTag[] };

// One list element (RFC 9110 §5.6.1 allows empty ones) and the comma or end after it. `etagc` is
// %x21 / %x23-7E / obs-text, so a comma may sit inside a tag and the list cannot simply be split.
// Blanks after a tag belong to the tag's group: two optional runs of blanks side by side would share
// every blank between them, backtracking quadratically on a long run that ends in a stray character.
const LIST_ELEMENT = /[ \t]*(?:(W\/)?"([\x21\x23-\x7E\x80-\xFF]*)"[ \t]*)?(,|$)/y;
/**
 * Longer than any list a client has reason to send (a few hundred of this API's tags). RFC 9110 §5.4: a
 * field larger than a server wishes to process is answered with a 4xx, not ignored.
 */
export const ENTITY_TAG_FIELD_MAX_LENGTH = 4096;
const VERSION = /^(?:0|[1-9][0-9]{0,9})$/;
const MAX_VERSION = 2 ** 31 - 1;

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** The field's value as a condition, or undefined when it is malformed. */
export function parseEntityTagCondition(value: string): EntityTagCondition | undefined {
  if (value.trim() === '*') return { any: true };
  const tags: EntityTag[] = [];
  LIST_ELEMENT.lastIndex = 0;
  // Each element ends at a comma, which moves on, or at the end of the value, which stops.
  for (;;) {
    const element = LIST_ELEMENT.exec(value);
    if (!element) return undefined;
    const [, weak, opaque, separator] = element;
    if (opaque !== undefined) tags.push({ weak: weak !== undefined, opaque });
    if (separator === '') break;
  }
  return tags.length > 0 ? { any: false, tags } : undefined;
}

/** The versions a list of tags names under strong comparison: weak tags and foreign tags name none. */
export function strongVersionsOf(tags: readonly EntityTag[]): number[] {
  return tags.filter((tag) => !tag.weak).flatMap((tag) => versionOf(tag.opaque) ?? []);
}

/** Whether a condition names the current version under weak comparison, as If-None-Match compares. */
export function weaklyMatches(condition: EntityTagCondition, version: number): boolean {
  return condition.any || condition.tags.some((tag) => tag.opaque === String(version));
}

function versionOf(opaque: string): number | undefined {
  if (!VERSION.test(opaque)) return undefined;
  const version = Number(opaque);
  return version <= MAX_VERSION ? version : undefined;
}
