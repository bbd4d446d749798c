import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { entityTooLarge } from './errors.ts';

type Chunks = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** Bytes received into a temporary file, not yet an object's. */
export interface ReceivedBlob {
  file: string;
  size: number;
  /** The quoted MD5 of the bytes, as Storage's `eTag`. */
  eTag: string;
}

/**
 * Objects' bytes on disk: `<root>/objects/<bucket>/<object id>`, uploads first written under
 * `<root>/uploads/` and renamed into place only once their row is written.
 */
export interface BlobStore {
  receive(body: Chunks, maxSize: number): Promise<ReceivedBlob>;
  commit(blob: ReceivedBlob, bucket: string, id: string): Promise<void>;
  discard(blob: ReceivedBlob): Promise<void>;
  /** Bytes on disk, or null when the object has none. */
  size(bucket: string, id: string): Promise<number | null>;
  read(bucket: string, id: string, range?: { start: number; end: number }): ReadStream;
  copy(from: { bucket: string; id: string }, to: { bucket: string; id: string }): Promise<void>;
  move(id: string, fromBucket: string, toBucket: string): Promise<void>;
  remove(bucket: string, id: string): Promise<void>;
}

export function blobStore(root: string): BlobStore {
  const uploads = join(root, 'uploads');
  const pathOf = (bucket: string, id: string) => join(root, 'objects', bucketDirectory(bucket), id);
  const ensureParent = (bucket: string) =>
    mkdir(join(root, 'objects', bucketDirectory(bucket)), { recursive: true });
  return {
    async receive(body, maxSize) {
      await mkdir(uploads, { recursive: true });
      return receiveInto(join(uploads, randomUUID()), body, maxSize);
    },
    async commit(blob, bucket, id) {
      await ensureParent(bucket);
      await rename(blob.file, pathOf(bucket, id));
    },
    discard: (blob) => rm(blob.file, { force: true }),
    size: async (bucket, id) => (await stat(pathOf(bucket, id)).catch(() => null))?.size ?? null,
    read: (bucket, id, range) => createReadStream(pathOf(bucket, id), range),
    async copy(from, to) {
      await ensureParent(to.bucket);
      await copyFile(pathOf(from.bucket, from.id), pathOf(to.bucket, to.id));
    },
    async move(id, fromBucket, toBucket) {
      if (fromBucket === toBucket) return;
      await ensureParent(toBucket);
      await rename(pathOf(fromBucket, id), pathOf(toBucket, id));
    },
    remove: (bucket, id) => rm(pathOf(bucket, id), { force: true }),
  };
}

/** Bucket ids may hold characters a file name should not; "." and ".." must not name a directory. */
function bucketDirectory(bucket: string): string {
  return encodeURIComponent(bucket).replace(/^\.+$/, (dots) => '%2E'.repeat(dots.length));
}

/** Streams `body` into `file` with its MD5, cutting it off (and deleting it) past `maxSize` bytes. */
async function receiveInto(file: string, body: Chunks, maxSize: number): Promise<ReceivedBlob> {
  const hash = createHash('md5');
  let size = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > maxSize) throw entityTooLarge();
      hash.update(chunk);
      yield chunk;
    }
  }
  const out = createWriteStream(file, { mode: 0o600 });
  try {
    await pipeline(counted(), out);
  } catch (error) {
    // Cut off while the file was still opening, the open would create it after an early removal. (Not
    // events.once: the stream's own 'error' would reject it.)
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(file, { force: true });
    throw error;
  }
  return { file, size, eTag: `"${hash.digest('hex')}"` };
}
