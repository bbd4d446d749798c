const SIZE_WITH_UNIT = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)?$/i;

const UNIT_BYTES: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/**
 * Bytes in "1MB" (decimal, as Storage's parseFileSizeToBytes), "50MiB" (binary, as the CLI's config.toml) or
 * "1024"; null when the text is none of these.
 */
export function parseFileSize(text: string): number | null {
  const match = SIZE_WITH_UNIT.exec(text.trim());
  if (!match) return null;
  const bytes = Number(match[1]) * (UNIT_BYTES[(match[2] ?? 'b').toLowerCase()] ?? 1);
  return Number.isSafeInteger(Math.floor(bytes)) ? Math.floor(bytes) : null;
}
