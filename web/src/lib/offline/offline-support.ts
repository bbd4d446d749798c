import type { QueryClient } from '@tanstack/react-query';
import { onAuthEvent } from '../auth/auth-session.ts';
import { AUTH_STORAGE_KEY, storedUserId } from '../auth/stored-session.ts';
import { whenQuiet } from '../scheduling/when-quiet.ts';
import { followBrowserOnlineState } from './online-status.ts';

/** Opening offline, the saved data is waited for this long at most: a stuck IndexedDB must not keep the app away. */
const RESTORE_TIMEOUT_MS = 2_000;

/**
 * Offline support (decision 0040), none of which the first screen waits for when online: the query
 * cache is saved for the signed-in person, and the service worker is registered, once the screen has
 * shown. Opened offline, the saved data is put into the cache before anything renders, so that screens
 * show it instead of waiting for a network that is not there. Resolves when the app may render.
 * `offerReload`: how the app offers a new version (app/offer-reload.ts).
 */
export async function startOfflineSupport(
  queryClient: QueryClient,
  offerReload: (reload: () => void) => void,
): Promise<void> {
  followBrowserOnlineState();
  const userId = storedUserId(window.localStorage, AUTH_STORAGE_KEY);
  whenQuiet(() => {
    keepSavingFor(queryClient, userId);
    if (import.meta.env.PROD)
      void import('./service-worker.ts').then((sw) => sw.registerServiceWorker(offerReload));
  });
  if (navigator.onLine || !userId) return;
  const restored = import('./saved-queries.ts').then((saved) =>
    saved.restoreSavedQueries(queryClient, userId),
  );
  await Promise.race([restored.catch(() => undefined), delay(RESTORE_TIMEOUT_MS)]);
}

/** Saves the cache under the signed-in person's name, following sign-ins and sign-outs. */
function keepSavingFor(queryClient: QueryClient, firstUserId: string | null): void {
  let current: { userId: string; stop: () => void } | null = null;
  const follow = async (userId: string | null) => {
    if (current?.userId === userId) return;
    current?.stop();
    current = null;
    const saved = await import('./saved-queries.ts');
    if (userId) current = { userId, stop: saved.keepQueriesSaved(queryClient, userId) };
  };
  void follow(firstUserId);
  onAuthEvent((_event, state) => void follow(state.session?.user.id ?? null));
}

/** Forgets every saved query cache in this browser: on sign-out (app/auth-wiring.ts). */
export async function forgetSavedQueries(): Promise<void> {
  const saved = await import('./saved-queries.ts');
  await saved.forgetSavedQueries();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
