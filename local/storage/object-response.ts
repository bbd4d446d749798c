import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blob-store.ts';
import { requestedRange } from './byte-range.ts';
import { dispositionOf } from './content-disposition.ts';
import { noSuchKey, StorageError } from './errors.ts';
import type { ObjectRow } from './objects.queries.ts';

/**
 * What every object answer carries, whatever its type (docs/decisions/0031): the browser takes the type as
 * it is, never guessing another from the bytes, and a document opened anyway runs no script, loads nothing
 * and has an origin of its own, not Storage's (that of Auth and the functions).
 */
const SAFETY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
} as const;

/**
 * Answers with an object's bytes and Storage's headers (Content-Type, Cache-Control, ETag, Last-Modified,
 * Content-Length), a part of them for a `Range`, the safety headers, and `Content-Disposition: attachment`
 * when the URL has `download` (its value, or else the object's file name, naming the file) or the object
 * is not an image shown inline.
 */
export async function sendObject(
  store: BlobStore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  object: ObjectRow,
): Promise<void> {
  const size = await storedSize(store, object);
  const range = rangeOf(req, res, size);
  const mimeType = object.metadata?.mimetype ?? 'application/octet-stream';
  const headers: Record<string, string> = {
    ...SAFETY_HEADERS,
    'content-type': mimeType,
    'cache-control': object.metadata?.cacheControl ?? 'no-cache',
    etag: object.metadata?.eTag ?? '',
    'last-modified': new Date(object.metadata?.lastModified ?? object.updated_at).toUTCString(),
    'accept-ranges': 'bytes',
    'content-length': String(range ? range.end - range.start + 1 : size),
  };
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  const disposition = dispositionOf(mimeType, url.searchParams.get('download'), fileName(object));
  if (disposition) headers['content-disposition'] = disposition;
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || size === 0) return void res.end();
  await pipeline(store.read(object.bucket_id, object.id, range ?? undefined), res);
}

function rangeOf(req: IncomingMessage, res: ServerResponse, size: number) {
  try {
    return requestedRange(req.headers.range, size);
  } catch (error) {
    if (error instanceof StorageError) res.setHeader('content-range', `bytes */${size}`);
    throw error;
  }
}

async function storedSize(store: BlobStore, object: ObjectRow): Promise<number> {
  const size = await store.size(object.bucket_id, object.id);
  if (size === null) throw noSuchKey();
  return size;
}

function fileName(object: ObjectRow): string {
  return object.name.split('/').pop() ?? object.name;
}
