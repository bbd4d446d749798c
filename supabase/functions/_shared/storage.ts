/**
 * The API's one way to Supabase Storage (`{SUPABASE_URL}/storage/v1`, docs/supabase-protocols.md#storage),
 * as the service: with the project's secret key (or legacy service_role key) as `apikey` and bearer,
 * which the gateway turns into the service_role JWT. Only what the API needs: signed upload URLs, signed
 * download URLs, the first bytes of an object, and removal. Every call has a timeout; any failure of
 * Storage is `503 unavailable`, and nothing Storage said reaches the client (it is logged as the cause).
 */
import { AppError } from './errors.ts';

export const STORAGE_TIMEOUT_MS = 10_000;

export interface StorageOptions {
  /** The project's URL (SUPABASE_URL): Storage is at `${url}/storage/v1`. */
  url: string;
  /** A key that acts as service_role: `sb_secret_…` or the legacy service_role JWT. */
  serviceKey: string;
  timeoutMs?: number;
  /** A test seam; the runtime's fetch by default. */
  fetch?: typeof fetch;
}

export interface SignedUpload {
  /** The complete URL to PUT the bytes to, its token included. */
  url: string;
  token: string;
}

export interface StorageClient {
  createSignedUploadUrl(bucket: string, path: string): Promise<SignedUpload>;
  /**
   * A URL that serves the object without credentials for `expiresInSeconds`; with `downloadAs`, served as
   * a download (`Content-Disposition: attachment`) under that file name.
   */
  createSignedUrl(
    bucket: string,
    path: string,
    expiresInSeconds: number,
    downloadAs?: string,
  ): Promise<string>;
  /** The signed URLs of several objects at once, by path (a path Storage cannot sign is left out). */
  createSignedUrls(
    bucket: string,
    paths: readonly string[],
    expiresInSeconds: number,
  ): Promise<Map<string, string>>;
  /** Up to `count` bytes from the object's start; undefined when there is no such object. */
  readStart(bucket: string, path: string, count: number): Promise<Uint8Array | undefined>;
  /** Removes the objects; those already gone are no error. */
  remove(bucket: string, paths: readonly string[]): Promise<void>;
}

/** Storage answered something else than it should have, or not at all. */
function storageUnavailable(cause: unknown): AppError {
  return new AppError('unavailable', 'File storage is not reachable right now. Try again shortly.', {
    cause,
    headers: { 'Retry-After': '5' },
  });
}

/** Object paths go into URLs segment by segment; the API's own are UUIDs, but nothing relies on it. */
const objectUrl = (bucket: string, path: string): string =>
  [bucket, ...path.split('/')].map(encodeURIComponent).join('/');

export function createStorageClient(options: StorageOptions): StorageClient {
  const base = `${options.url.replace(/\/+$/, '')}/storage/v1`;
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? STORAGE_TIMEOUT_MS;
  const headers = { apikey: options.serviceKey, Authorization: `Bearer ${options.serviceKey}` };

  async function call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await send(`${base}${path}`, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw storageUnavailable(error);
    }
  }

  async function json<T>(path: string, init: RequestInit): Promise<T> {
    const response = await call(path, {
      ...init,
      headers: { 'Content-Type': 'application/json' },
    });
    const text = await response.text().catch((error: unknown) => {
      throw storageUnavailable(error);
    });
    if (!response.ok) throw storageUnavailable(new Error(`Storage answered ${response.status}: ${text}`));
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw storageUnavailable(error);
    }
  }

  return {
    async createSignedUploadUrl(bucket, path) {
      const body = await json<{ url?: unknown; token?: unknown }>(
        `/object/upload/sign/${objectUrl(bucket, path)}`,
        {
          method: 'POST',
          body: '{}',
        },
      );
      if (typeof body.url !== 'string' || typeof body.token !== 'string' || !body.url.includes('token=')) {
        throw storageUnavailable(new Error('Storage answered a signed upload URL without its token'));
      }
      return { url: `${base}${body.url}`, token: body.token };
    },

    async createSignedUrl(bucket, path, expiresInSeconds, downloadAs) {
      const body = await json<{ signedURL?: unknown }>(`/object/sign/${objectUrl(bucket, path)}`, {
        method: 'POST',
        body: JSON.stringify({ expiresIn: expiresInSeconds }),
      });
      if (typeof body.signedURL !== 'string') {
        throw storageUnavailable(new Error('Storage answered no signedURL'));
      }
      const download = downloadAs === undefined ? '' : `&download=${encodeURIComponent(downloadAs)}`;
      return `${base}${body.signedURL}${download}`;
    },

    async createSignedUrls(bucket, paths, expiresInSeconds) {
      if (paths.length === 0) return new Map();
      const body = await json<unknown>(`/object/sign/${encodeURIComponent(bucket)}`, {
        method: 'POST',
        body: JSON.stringify({ expiresIn: expiresInSeconds, paths }),
      });
      if (!Array.isArray(body))
        throw storageUnavailable(new Error('Storage answered no list of signed URLs'));
      const signed = new Map<string, string>();
      for (const entry of body as { path?: unknown; signedURL?: unknown }[]) {
        if (typeof entry.path === 'string' && typeof entry.signedURL === 'string') {
          signed.set(entry.path, `${base}${entry.signedURL}`);
        }
      }
      return signed;
    },

    async readStart(bucket, path, count) {
      const response = await call(`/object/${objectUrl(bucket, path)}`, {
        method: 'GET',
        headers: { Range: `bytes=0-${count - 1}` },
      });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        if (isMissingObject(response.status, text)) return undefined;
        throw storageUnavailable(new Error(`Storage answered ${response.status}: ${text}`));
      }
      try {
        return await readAtMost(response, count);
      } catch (error) {
        throw storageUnavailable(error);
      }
    },

    async remove(bucket, paths) {
      if (paths.length === 0) return;
      await json<unknown>(`/object/${encodeURIComponent(bucket)}`, {
        method: 'DELETE',
        body: JSON.stringify({ prefixes: paths }),
      });
    },
  };
}

/** Storage says "not found" with HTTP 400 or 404 and `statusCode: "404"` in the body. */
function isMissingObject(status: number, text: string): boolean {
  if (status === 404) return true;
  try {
    const body = JSON.parse(text) as { statusCode?: unknown; code?: unknown };
    return body.statusCode === '404' || body.code === 'NoSuchKey';
  } catch {
    return false;
  }
}

/** The first `count` bytes of the body; a server that ignored Range is cut off there. */
async function readAtMost(response: Response, count: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const start = new Uint8Array(count);
  let filled = 0;
  while (filled < count) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = Math.min(value.length, count - filled);
    start.set(value.subarray(0, take), filled);
    filled += take;
  }
  await reader.cancel().catch(() => undefined);
  return start.subarray(0, filled);
}
