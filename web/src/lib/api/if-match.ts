/**
 * The `If-Match` header of a change made from what was read: the resource's `version` as the strong
 * entity tag the API sends in `ETag`, `"<version>"` (supabase/functions/api/http/entity-tags.ts). The
 * change then applies only if nobody changed the resource since; otherwise the API answers
 * `412 precondition_failed` with the `current_version`.
 */
export function ifMatch(resource: { version: number }): { 'If-Match': string } {
  return { 'If-Match': entityTagOf(resource.version) };
}

export function entityTagOf(version: number): string {
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new RangeError(`A version is a whole number of at least 0, not ${version}.`);
  }
  return `"${version}"`;
}
