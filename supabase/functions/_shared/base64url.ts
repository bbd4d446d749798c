/** base64url (RFC 4648 §5) without padding: how cursors, invitation tokens and signed links are written. */

export const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function toBase64url(bytes: Uint8Array): string {
  const binary = Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The bytes `text` encodes, or undefined when it is not base64url. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  try {
    return Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (char) =>
      char.charCodeAt(0),
    );
  } catch {
    return undefined;
  }
}

/** The UTF-8 text `text` encodes, or undefined when it is not base64url of UTF-8. */
export function utf8FromBase64url(text: string): string | undefined {
  const bytes = fromBase64url(text);
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
