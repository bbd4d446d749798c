/**
 * The stand-in's Storage service (local/storage), started in-process on a test file's own database, the
 * way local/stack.ts mounts it at /storage/v1: for API tests of attachments and avatars, which call it over
 * HTTP as the function does on hosted Supabase. It trusts the access tokens of the test users
 * (test-users.ts), as hosted Storage trusts the project's Auth, so a test can also call it as a person.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type pg from 'pg';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorageClient, type StorageClient } from '../../supabase/functions/_shared/storage.ts';
import { openDatabase } from '../../local/db.ts';
import { loadOrCreateKeys } from '../../local/keys.ts';
import { createStorageService } from '../../local/storage/storage-service.ts';
import { testPublicJwk } from './test-users.ts';

const PREFIX = '/storage/v1';
const FILE_SIZE_LIMIT = 50 * 1024 * 1024;
const UPLOAD_URL_EXPIRES_IN_SECONDS = 7200;

/** The database clients of the Storage services started here: not the API's (round-trips.test.ts). */
const storageClients = new WeakSet<object>();

export const isStorageStandInClient = (client: object): boolean => storageClients.has(client);

export interface TestStorage {
  /** The project URL Storage answers under (`${url}/storage/v1`). */
  url: string;
  /** The API's client, with the secret key. */
  client: StorageClient;
  /** A call to `${url}/storage/v1${path}` as a person would make it: the anon key and their access token. */
  fetchAs(accessToken: string, path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestStorage(databaseUrl: string): Promise<TestStorage> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tasklane-test-storage-'));
  // Users' access tokens are verified against the test signing key, which signs the test users' tokens.
  const keys = { ...(await loadOrCreateKeys(dataDir)), signingKey: testPublicJwk };
  const database = openDatabase({ url: databaseUrl, maxConnections: 3, log: () => undefined });
  (database.statements as pg.Pool).on('connect', (client) => storageClients.add(client));
  const service = createStorageService({
    database,
    keys,
    root: join(dataDir, 'storage'),
    fileSizeLimit: FILE_SIZE_LIMIT,
    uploadUrlExpiresInSeconds: UPLOAD_URL_EXPIRES_IN_SECONDS,
  });
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (!path.startsWith(`${PREFIX}/`)) {
      res.writeHead(404).end();
      return;
    }
    service(req, res, path.slice(PREFIX.length)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    client: createStorageClient({ url, serviceKey: keys.secretKey }),
    fetchAs(accessToken, path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('apikey', keys.anonKey);
      headers.set('Authorization', `Bearer ${accessToken}`);
      return fetch(`${url}${PREFIX}${path}`, { ...init, headers });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
