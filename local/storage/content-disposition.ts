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
