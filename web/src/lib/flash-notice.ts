import { useSyncExternalStore } from 'react';

/**
 * A one-line confirmation that outlives a navigation ("Your password was changed" on the home page),
 * shown by the app's layout until dismissed or replaced.
 */

let notice: string | null = null;
const subscribers = new Set<() => void>();

export function showNotice(message: string): void {
  setNotice(message);
}

export function dismissNotice(): void {
  setNotice(null);
}

export function useNotice(): string | null {
  return useSyncExternalStore(subscribe, () => notice);
}

function setNotice(value: string | null): void {
  notice = value;
  for (const notify of subscribers) notify();
}

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}
