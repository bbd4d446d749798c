import type { IncomingMessage } from 'node:http';
import { readBody } from '../gateway/http.ts';
import type { BlobStore, ReceivedBlob } from './blob-store.ts';
import { entityTooLarge, invalidRequest } from './errors.ts';
import { assertMimeTypeAllowed, assertSizeWithin, type BucketLimits } from './limits.ts';

/** An upload's bytes (in a temporary file) and what Storage keeps about them. */
export interface UploadBody {
  blob: ReceivedBlob;
  mimeType: string;
  cacheControl: string;
  contentEncoding: string | null;
  userMetadata: unknown;
}

export interface UploadRules {
  bucket: BucketLimits;
  /** Bytes: the bucket's limit within the global one. */
  maxSize: number;
  /** Empty-folder placeholders skip the checks, as in Storage. */
  checked: boolean;
}

/** Storage's MAX_CUSTOM_METADATA_SIZE. */
const MAX_USER_METADATA_BYTES = 1024 * 1024;
/** Room for the form's other fields and boundaries around a file part of the largest allowed size. */
const MULTIPART_OVERHEAD_BYTES = MAX_USER_METADATA_BYTES + 64 * 1024;
const DEFAULT_MIME_TYPE = 'application/octet-stream';

type FilePart = Exclude<ReturnType<FormData['get']>, string | null>;

export function receiveUpload(
  req: IncomingMessage,
  store: BlobStore,
  rules: UploadRules,
): Promise<UploadBody> {
  const type = req.headers['content-type'] ?? '';
  return /^multipart\/form-data/i.test(type)
    ? receiveMultipart(req, store, rules)
    : receiveRaw(req, store, rules);
}

/** A raw body: MIME type from Content-Type, options from headers; too long a Content-Length is refused unread. */
async function receiveRaw(req: IncomingMessage, store: BlobStore, rules: UploadRules): Promise<UploadBody> {
  const mimeType = req.headers['content-type'] || DEFAULT_MIME_TYPE;
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  const maxSize = rules.checked ? rules.maxSize : Number.MAX_SAFE_INTEGER;
  if (rules.checked) {
    if (Number.isFinite(declared)) assertSizeWithin(declared, maxSize);
    assertMimeTypeAllowed(rules.bucket, mimeType);
  }
  const metadataHeader = req.headers['x-metadata'];
  const userMetadata =
    typeof metadataHeader === 'string'
      ? parseUserMetadata(Buffer.from(metadataHeader, 'base64').toString())
      : null;
  return {
    blob: await store.receive(req, maxSize),
    mimeType,
    cacheControl: req.headers['cache-control'] ?? 'no-cache',
    contentEncoding: stringOrNull(req.headers['content-encoding']),
    userMetadata,
  };
}

/** A form (storage-js sends Blobs so): the first file part, whatever its field name (storage-js uses ""). */
async function receiveMultipart(
  req: IncomingMessage,
  store: BlobStore,
  rules: UploadRules,
): Promise<UploadBody> {
  const maxSize = rules.checked ? rules.maxSize : Number.MAX_SAFE_INTEGER;
  const body = await readBody(req, maxSize + MULTIPART_OVERHEAD_BYTES);
  if (body === null) throw entityTooLarge();
  const form = await parseForm(body, req.headers['content-type'] ?? '');
  const file = [...form.values()].find((value): value is FilePart => typeof value !== 'string');
  if (!file) throw invalidRequest('No file part in the form');
  const mimeType = formField(form, 'contentType') ?? (file.type || DEFAULT_MIME_TYPE);
  if (rules.checked) {
    assertSizeWithin(file.size, maxSize);
    assertMimeTypeAllowed(rules.bucket, mimeType);
  }
  const cacheControl = formField(form, 'cacheControl');
  const metadata = formField(form, 'metadata');
  return {
    blob: await store.receive([new Uint8Array(await file.arrayBuffer())], maxSize),
    mimeType,
    cacheControl: cacheControl ? `max-age=${cacheControl}` : 'no-cache',
    contentEncoding: formField(form, 'contentEncoding') ?? null,
    userMetadata: metadata === undefined ? null : parseUserMetadata(metadata),
  };
}

async function parseForm(body: Buffer, contentType: string): Promise<FormData> {
  try {
    return await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw invalidRequest('The multipart body could not be read');
  }
}

function formField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function parseUserMetadata(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_USER_METADATA_BYTES) throw entityTooLarge();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest('metadata is not valid JSON');
  }
}

function stringOrNull(value: string | string[] | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
