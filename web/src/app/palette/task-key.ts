/** A task key as someone types it ("web-12", " WEB-12 "), upper-cased; null when the text is not one. */
export function parseTaskKey(text: string): string | null {
  const match = /^([a-z][a-z0-9]{1,9})-([1-9][0-9]{0,9})$/i.exec(text.trim());
  return match ? `${match[1]?.toUpperCase()}-${match[2]}` : null;
}
