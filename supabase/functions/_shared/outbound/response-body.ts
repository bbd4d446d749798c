/**
 * The body of an HTTP/1.1 response, framed by `Transfer-Encoding: chunked`, `Content-Length`, or the end of
 * the connection, of which only the first `maxBytes` are kept: reading stops there, and the caller closes
 * the connection on the rest.
 */
import type { ByteReader } from './byte-reader.ts';
import { BadResponseError } from './outbound-errors.ts';
import type { ResponseHead } from './response-head.ts';

const MAX_CHUNK_LINE_BYTES = 4096;
const CHUNK_SIZE = /^([0-9a-fA-F]{1,15})[ \t]*(?:;.*)?$/;
const CONTENT_LENGTH = /^[0-9]{1,15}$/;

/** The bytes kept so far: what a caller still has when the deadline ends the read. */
export class BodyPrefix {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get room(): number {
    return this.maxBytes - this.size;
  }

  add(bytes: Uint8Array): void {
    const kept = bytes.subarray(0, this.room);
    this.parts.push(kept);
    this.size += kept.length;
  }

  text(): string {
    const bytes = new Uint8Array(this.size);
    let offset = 0;
    for (const part of this.parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    return new TextDecoder().decode(bytes);
  }
}

export async function readResponseBody(
  reader: ByteReader,
  head: ResponseHead,
  body: BodyPrefix,
): Promise<void> {
  if (hasNoBody(head.status)) return;
  const transferEncoding = head.headers['transfer-encoding'];
  if (transferEncoding !== undefined && /(^|,)[ \t]*chunked[ \t]*$/i.test(transferEncoding))
    return readChunked(reader, body);
  // Another transfer coding, or none and no length: the body ends with the connection.
  if (transferEncoding !== undefined) return readLength(reader, body, Infinity);
  const contentLength = head.headers['content-length'];
  return readLength(reader, body, contentLength === undefined ? Infinity : lengthOf(contentLength));
}

function hasNoBody(status: number): boolean {
  return status < 200 || status === 204 || status === 304;
}

/** A Content-Length, which repeated fields must agree on. */
function lengthOf(field: string): number {
  const values = new Set(field.split(',').map((value) => value.trim()));
  const [value] = values;
  if (values.size !== 1 || value === undefined || !CONTENT_LENGTH.test(value))
    throw new BadResponseError('The Content-Length header is malformed.');
  return Number(value);
}

async function readLength(reader: ByteReader, body: BodyPrefix, length: number): Promise<void> {
  let left = length;
  while (left > 0 && body.room > 0) {
    const bytes = await reader.read(Math.min(left, body.room));
    if (bytes === null) return;
    body.add(bytes);
    left -= bytes.length;
  }
}

async function readChunked(reader: ByteReader, body: BodyPrefix): Promise<void> {
  while (body.room > 0) {
    const line = await reader.readLine(MAX_CHUNK_LINE_BYTES);
    if (line === null) return;
    const size = CHUNK_SIZE.exec(line)?.[1];
    if (size === undefined) throw new BadResponseError('A chunk size line is malformed.');
    const length = parseInt(size, 16);
    if (length === 0) return;
    await readLength(reader, body, length);
    if (body.room === 0) return;
    const chunkEnd = await reader.readLine(MAX_CHUNK_LINE_BYTES);
    if (chunkEnd === null) return;
    if (chunkEnd !== '') throw new BadResponseError('A chunk does not end where its size says.');
  }
}
