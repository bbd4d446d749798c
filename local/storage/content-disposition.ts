/**
 * `attachment; filename*=UTF-8''<name>` (RFC 6266 with RFC 5987's encoding), so any file name, accents
 * and quotes included, reaches the browser intact.
 */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename*=UTF-8''${rfc5987(fileName)}`;
}

/** encodeURIComponent leaves ' ( ) * unescaped, which RFC 5987's attr-char does not allow. */
function rfc5987(text: string): string {
  return encodeURIComponent(text).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The types a page shows with `<img>`, which no browser runs as a document: the only ones served inline. */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The Content-Disposition of an object served with `mimeType`: `attachment` when the URL asks for a
 * `download` (its value naming the file, or else `fileName`), and also, unlike Storage, for every type but
 * the images above, so that a link that lost its `download` still does not open a file on Storage's
 * origin (docs/decisions/0031). Undefined: served inline.
 */
export function dispositionOf(
  mimeType: string,
  download: string | null,
  fileName: string,
): string | undefined {
  if (download === null && INLINE_TYPES.has(mimeType)) return undefined;
  return attachmentDisposition(download || fileName);
}
