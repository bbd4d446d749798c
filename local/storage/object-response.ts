import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blob-store.ts';
import { requestedRange } from './byte-range.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { noSuchKey, StorageError } from './errors.ts';
import type { ObjectRow } from './objects.queries.ts';

/**
 * Answers with an object's bytes and Storage's headers (Content-Type, Cache-Control, ETag, Last-Modified,
 * Content-Length), a part of them for a `Range`, and `Content-Disposition: attachment` when the URL has
 * `download` (its value, or else the object's file name, naming the file).
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
  const headers: Record<string, string> = {
    'content-type': object.metadata?.mimetype ?? 'application/octet-stream',
    'cache-control': object.metadata?.cacheControl ?? 'no-cache',
    etag: object.metadata?.eTag ?? '',
    'last-modified': new Date(object.metadata?.lastModified ?? object.updated_at).toUTCString(),
    'accept-ranges': 'bytes',
    'content-length': String(range ? range.end - range.start + 1 : size),
  };
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  const download = url.searchParams.get('download');
  if (download !== null) headers['content-disposition'] = attachmentDisposition(download || fileName(object));
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
