import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type Persister,
} from '@tanstack/query-persist-client-core';
import type { Query, QueryClient } from '@tanstack/react-query';
import { clear, createStore, del, get, set } from 'idb-keyval';

/**
 * The query cache saved in IndexedDB, one entry per person, so that offline the app shows what it last
 * read (decision 0040). Loaded after the first screen has shown, or at start when the page opens offline.
 */

/** Saved data older than this is not shown: a day-old board is still worth reading offline. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Saved API answers of another contract may not have the shape the screens expect: drop them. */
const BUSTER = import.meta.env.VITE_API_CONTRACT;

const store = createStore('tasklane', 'saved-queries');

/**
 * The one person whose cache may be written. A write the persister had throttled can land after its
 * person signed out and their data was forgotten: it is dropped, not written back.
 */
let savingFor: string | null = null;
const keyOf = (userId: string) => `queries:${userId}`;

function persisterFor(userId: string): Persister {
  return createAsyncStoragePersister({
    storage: {
      getItem: (key) => get<string>(key, store).then((value) => value ?? null),
      setItem: (key, value: string) =>
        savingFor !== null && key === keyOf(savingFor) ? set(key, value, store) : Promise.resolve(),
      removeItem: (key) => del(key, store),
    },
    key: keyOf(userId),
    throttleTime: 1_000,
  });
}

/** What is saved: what was read successfully, but no signed link (it expires, and it is a credential). */
function worthSaving(query: Query): boolean {
  return query.state.status === 'success' && !query.queryKey.includes('download');
}

/** Puts the person's saved data into the cache, where nothing newer is there; drops it when too old. */
export async function restoreSavedQueries(queryClient: QueryClient, userId: string): Promise<void> {
  await persistQueryClientRestore({
    queryClient,
    persister: persisterFor(userId),
    maxAge: MAX_AGE_MS,
    buster: BUSTER,
  });
}

/** Saves the cache after each change (at most once a second) until the returned function is called. */
export function keepQueriesSaved(queryClient: QueryClient, userId: string): () => void {
  savingFor = userId;
  const unsubscribe = persistQueryClientSubscribe({
    queryClient,
    persister: persisterFor(userId),
    buster: BUSTER,
    dehydrateOptions: { shouldDehydrateQuery: worthSaving, shouldDehydrateMutation: () => false },
  });
  return () => {
    unsubscribe();
    if (savingFor === userId) savingFor = null;
  };
}

/** Forgets everyone's saved data: on sign-out, the next person in this browser must not find it. */
export function forgetSavedQueries(): Promise<void> {
  return clear(store);
}
