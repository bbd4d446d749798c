import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import {
  supabaseClient,
  uniqueEmails,
  UNLIMITED_AUTH_RATES,
  useStandIn,
  type UsedStandIn,
} from './stand-in-auth.ts';

const PASSWORD = 'storage tests password';

export interface StorageUser {
  id: string;
  accessToken: string;
  /** supabase-js signed in as this user. */
  client: SupabaseClient;
}

type BucketOptions = Parameters<SupabaseClient['storage']['createBucket']>[1];

export interface UsedStorageStandIn {
  standIn: UsedStandIn;
  /** supabase-js on the anon key, signed in as nobody. */
  anon(): SupabaseClient;
  /** supabase-js on the secret key: service_role, past every policy. */
  service(): SupabaseClient;
  /** A new user, signed up and signed in. */
  newUser(): Promise<StorageUser>;
  /** A raw call to /storage/v1 as a browser makes it; the anon key unless `init.headers` has an apikey. */
  fetchStorage(path: string, init?: RequestInit): Promise<Response>;
  /** Runs SQL as `postgres` (policies and buckets, as a migration would make them). */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** A new bucket, made with the service key, its id unique and starting with `prefix`. */
  newBucket(prefix: string, options?: BucketOptions): Promise<string>;
}

/** The usual setup of a storage test file: a stand-in of its own, with helpers for users and buckets. */
export function useStorageStandIn(env: NodeJS.ProcessEnv = {}): UsedStorageStandIn {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, ...env });
  const newEmail = uniqueEmails('storage');
  let buckets = 0;
  const service = () => supabaseClient(standIn.process.apiUrl, standIn.keys.secretKey);
  return {
    standIn,
    anon: () => standIn.client(),
    service,
    async newUser() {
      const client = standIn.client();
      const { data, error } = await client.auth.signUp({ email: newEmail(), password: PASSWORD });
      expect(error).toBeNull();
      if (!data.session || !data.user) throw new Error('signUp returned no session');
      return { id: data.user.id, accessToken: data.session.access_token, client };
    },
    fetchStorage(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('apikey')) headers.set('apikey', standIn.keys.anonKey);
      return fetch(`${standIn.process.apiUrl}/storage/v1${path}`, { ...init, headers });
    },
    sql: (text, params = []) =>
      standIn.withDatabase(async (db) => (await db.query(text, params)).rows as Record<string, unknown>[]),
    async newBucket(prefix, options = { public: false }) {
      buckets += 1;
      const id = `${prefix}-${buckets}-${Date.now()}`;
      const { error } = await service().storage.createBucket(id, options);
      expect(error).toBeNull();
      return id;
    },
  };
}

/** The body of a Storage error answer (HTTP 400 mostly; the logical status is the string `statusCode`). */
export async function storageErrorBody(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}
