/**
 * Hands a file to the browser's download: a link to the blob, clicked. The blob's address is released
 * a minute later, once the browser has surely started reading it.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
