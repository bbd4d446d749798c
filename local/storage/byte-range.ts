import { rangeNotSatisfiable } from './errors.ts';

/** Inclusive byte offsets, as in Content-Range. */
export interface ByteRange {
  start: number;
  end: number;
}

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * The one range a `Range` header asks for within `size` bytes; null to send the whole (no header, or a
 * form this server ignores, as multiple ranges); throws when the range lies wholly outside.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | null {
  const match = header === undefined ? null : SINGLE_RANGE.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1] ?? '', match[2] ?? ''];
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) throw rangeNotSatisfiable();
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) throw rangeNotSatisfiable();
  return { start, end };
}
