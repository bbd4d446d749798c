/**
 * Whether an uploaded file's first bytes are what a file of its declared type begins with (its "magic
 * number"): a file declared `image/png` must start as a PNG does, so that a renamed executable is refused
 * however it is named. Text types have no signature: their sample must be UTF-8 without NUL bytes.
 */
import type { AttachmentContentType } from '../../_shared/api-types.ts';

/** How much of a file is read to judge it: enough for every signature, and a fair look at a text file. */
export const SIGNATURE_SAMPLE_BYTES = 8 * 1024;

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));

/** Each binary type's signature: bytes expected at an offset (all of them must match). */
const SIGNATURES: Partial<Record<AttachmentContentType, readonly (readonly [number, number[]])[][]>> = {
  'image/png': [[[0, [0x89, ...ascii('PNG\r\n\x1a\n')]]]],
  'image/jpeg': [[[0, [0xff, 0xd8, 0xff]]]],
  'image/gif': [[[0, ascii('GIF87a')]], [[0, ascii('GIF89a')]]],
  'image/webp': [
    [
      [0, ascii('RIFF')],
      [8, ascii('WEBP')],
    ],
  ],
  'application/pdf': [[[0, ascii('%PDF-')]]],
  // A local file header; an empty archive is only its end record.
  'application/zip': [[[0, ascii('PK\x03\x04')]], [[0, ascii('PK\x05\x06')]]],
};

const startsWithAt = (sample: Uint8Array, offset: number, expected: readonly number[]): boolean =>
  expected.every((byte, index) => sample[offset + index] === byte);

/**
 * @param sample the file's first bytes
 * @param whole whether `sample` is the whole file (else a text sample may end inside a character)
 */
export function looksLike(type: AttachmentContentType, sample: Uint8Array, whole: boolean): boolean {
  const signatures = SIGNATURES[type];
  if (signatures) {
    return signatures.some((parts) =>
      parts.every(([offset, expected]) => startsWithAt(sample, offset, expected)),
    );
  }
  return isUtf8Text(whole ? sample : withoutCutCharacter(sample));
}

function isUtf8Text(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return true;
  } catch {
    return false;
  }
}

/** The sample without a multi-byte character its end cuts in two (at most the last 3 bytes). */
function withoutCutCharacter(sample: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, sample.length); back += 1) {
    const byte = sample[sample.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: the character starts further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? sample.subarray(0, sample.length - back) : sample;
  }
  return sample;
}
