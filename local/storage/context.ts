import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../db.ts';
import type { BlobStore } from './blob-store.ts';
import type { CallerVerifier } from './caller.ts';
import type { RouteParams } from '../gateway/route-table.ts';
import type { UrlTokens } from './url-tokens.ts';

/** What every storage endpoint may use. */
export interface StorageContext {
  database: Database;
  store: BlobStore;
  verifyCaller: CallerVerifier;
  urlTokens: UrlTokens;
  /** Bytes: no bucket accepts more (`[storage] file_size_limit`). */
  fileSizeLimit: number;
  uploadUrlExpiresInSeconds: number;
}

export interface StorageRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: RouteParams;
}

/**
 * What the route table maps each `"METHOD /path"` to. It answers with a JSON body (sent with 200), or
 * writes the response itself (downloads) and returns undefined.
 */
export type Endpoint = (context: StorageContext, request: StorageRequest) => Promise<unknown>;
