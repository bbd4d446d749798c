const KB = 1024;
const MB = 1024 * KB;

/** "1.2 MB", "25 MB", "840 KB", "312 bytes" (binary units, as file managers on Windows and Linux count). */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} bytes`;
  if (bytes < MB) return `${Math.round(bytes / KB)} KB`;
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;
}
