import type { Database } from '../db.ts';
import { answerPreflight } from '../auth/cors.ts';
import { applyApiKey, MISSING_API_KEY_BODY } from '../auth/api-keys.ts';
import type { ServiceHandler } from '../gateway/gateway.ts';
import { sendJson } from '../gateway/http.ts';
import type { StandInKeys } from '../keys.ts';
import { blobStore } from './blob-store.ts';
import {
  createBucket,
  emptyBucket,
  getBucket,
  listBuckets,
  removeBucket,
  updateBucket,
} from './bucket-endpoints.ts';
import { callerVerifier } from './caller.ts';
import type { Endpoint, StorageContext, StorageRequest } from './context.ts';
import { addStorageCorsHeaders } from './cors.ts';
import { fromDatabaseError, notFound, objectExists, sendStorageError, StorageError } from './errors.ts';
import { listObjects } from './object-list.ts';
import { listObjectsV2, notAnUpload } from './object-list-v2.ts';
import { downloadObject, downloadPublicObject, downloadSignedObject, objectInfo } from './object-reads.ts';
import { updateObject, uploadObject, uploadToSignedUrl } from './object-upload.ts';
import { copyObjectEndpoint, moveObjectEndpoint, removeObjects } from './object-writes.ts';
import { routeTable } from '../gateway/route-table.ts';
import { createSignedUploadUrl, createSignedUrl, createSignedUrls } from './signed-url-endpoints.ts';
import { urlTokens } from './url-tokens.ts';

export interface StorageServiceOptions {
  database: Database;
  keys: StandInKeys;
  /** Where the bytes live (`<data dir>/storage`). */
  root: string;
  fileSizeLimit: number;
  uploadUrlExpiresInSeconds: number;
}

/** Specific routes first: the first match wins, and `{*path}` swallows slashes. */
const ENDPOINTS: Record<string, Endpoint> = {
  'GET /bucket': listBuckets,
  'POST /bucket': createBucket,
  'GET /bucket/{id}': getBucket,
  'PUT /bucket/{id}': updateBucket,
  'DELETE /bucket/{id}': removeBucket,
  'POST /bucket/{id}/empty': emptyBucket,
  'POST /object/move': moveObjectEndpoint,
  'POST /object/copy': copyObjectEndpoint,
  'POST /object/list/{bucket}': listObjects,
  'POST /object/list-v2/{bucket}': listObjectsV2,
  'POST /object/list-v2/{*path}': notAnUpload,
  'PUT /object/list-v2/{*path}': notAnUpload,
  'POST /object/sign/{bucket}': createSignedUrls,
  'POST /object/sign/{bucket}/{*path}': createSignedUrl,
  'GET /object/sign/{bucket}/{*path}': downloadSignedObject,
  'HEAD /object/sign/{bucket}/{*path}': downloadSignedObject,
  'POST /object/upload/sign/{bucket}/{*path}': createSignedUploadUrl,
  'PUT /object/upload/sign/{bucket}/{*path}': uploadToSignedUrl,
  'GET /object/public/{bucket}/{*path}': downloadPublicObject,
  'HEAD /object/public/{bucket}/{*path}': downloadPublicObject,
  'GET /object/info/authenticated/{bucket}/{*path}': objectInfo,
  'GET /object/info/{bucket}/{*path}': objectInfo,
  'GET /object/authenticated/{bucket}/{*path}': downloadObject,
  'HEAD /object/authenticated/{bucket}/{*path}': downloadObject,
  'DELETE /object/{bucket}': removeObjects,
  'GET /object/{bucket}/{*path}': downloadObject,
  'HEAD /object/{bucket}/{*path}': downloadObject,
  'POST /object/{bucket}/{*path}': uploadObject,
  'PUT /object/{bucket}/{*path}': updateObject,
};

const findEndpoint = routeTable(ENDPOINTS, { trailingSlash: true });

/** URLs meant to be opened without credentials: the token (or the bucket being public) is the permission. */
const OPEN_ROUTE = /^\/object\/(?:sign|upload\/sign|public)\//;

/** A Supabase-Storage-compatible service for the gateway's /storage/v1 prefix. */
export function createStorageService(options: StorageServiceOptions): ServiceHandler {
  const context: StorageContext = {
    database: options.database,
    store: blobStore(options.root),
    verifyCaller: callerVerifier(options.keys),
    urlTokens: urlTokens(options.keys.jwtSecret),
    fileSizeLimit: options.fileSizeLimit,
    uploadUrlExpiresInSeconds: options.uploadUrlExpiresInSeconds,
  };
  return async (req, res, path) => {
    addStorageCorsHeaders(res);
    if (req.method === 'OPTIONS') return answerPreflight(req, res);
    const url = new URL(path, 'http://storage.local');
    if (!applyApiKey(req, url, options.keys) && !OPEN_ROUTE.test(url.pathname)) {
      return sendJson(res, 401, MISSING_API_KEY_BODY);
    }
    const route = findEndpoint(req.method ?? '', url.pathname);
    await answer(context, route?.handler ?? routeNotFound, { req, res, url, params: route?.params ?? {} });
  };
}

const routeNotFound: Endpoint = () => Promise.reject(notFound());

async function answer(context: StorageContext, endpoint: Endpoint, request: StorageRequest): Promise<void> {
  try {
    const body = await endpoint(context, request);
    if (!request.res.headersSent) sendJson(request.res, 200, body);
  } catch (thrown) {
    // A statement cut off by the timeout (or refused by RLS) in a read says so like any other.
    const error = thrown instanceof StorageError ? thrown : fromDatabaseError(thrown, objectExists);
    if (!error || request.res.headersSent) throw thrown;
    sendStorageError(request.res, error);
  }
}
