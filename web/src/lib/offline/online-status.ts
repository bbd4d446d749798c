import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/**
 * TanStack Query assumes it is online until the browser says otherwise, which it only says on a change: a
 * page opened offline would send every request and show each one failing. Read the browser's own state
 * once, at start; from then on the query client follows the `online` and `offline` events.
 */
export function followBrowserOnlineState(): void {
  onlineManager.setOnline(navigator.onLine);
}

/** Whether the browser is online, re-rendering on every change. Offline, queries and changes wait. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (notify) => onlineManager.subscribe(notify),
    () => onlineManager.isOnline(),
  );
}
