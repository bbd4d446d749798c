import { useEffect, useSyncExternalStore } from 'react';
import {
  NOWHERE,
  peopleOf,
  type PresenceMember,
  type PresencePlace,
  type PresenceState,
} from './presence.ts';

/**
 * The connection to the open workspace's channel as the screens see it: `connecting` until the first join,
 * `live` while joined, `reconnecting` after it was lost (socket closed, offline, join refused).
 */
export type ConnectionState = 'connecting' | 'live' | 'reconnecting';

interface LiveSnapshot {
  connection: ConnectionState;
  /** realtime-js's presenceState(): a list of metas per person. */
  presence: Readonly<Record<string, readonly unknown[]>>;
  /** Where this tab is (the board, the task open), what presence tells the others. */
  place: PresencePlace;
}

let snapshot: LiveSnapshot = { connection: 'connecting', presence: {}, place: NOWHERE };
const listeners = new Set<() => void>();

function update(change: Partial<LiveSnapshot>): void {
  snapshot = { ...snapshot, ...change };
  for (const listener of listeners) listener();
}

export const liveStore = {
  get: (): LiveSnapshot => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setConnection: (connection: ConnectionState) => {
    if (snapshot.connection !== connection) update({ connection });
  },
  setPresence: (presence: LiveSnapshot['presence']) => update({ presence }),
  setPlace: (place: PresencePlace) => {
    if (place.project_key !== snapshot.place.project_key || place.task_key !== snapshot.place.task_key)
      update({ place });
  },
  reset: () => update({ connection: 'connecting', presence: {} }),
};

function useLive<T>(select: (snapshot: LiveSnapshot) => T): T {
  return useSyncExternalStore(liveStore.subscribe, () => select(snapshot));
}

/** The state of the workspace's live connection. */
export function useConnectionState(): ConnectionState {
  return useLive((s) => s.connection);
}

/** realtime-js's presence state of the open workspace; see `peopleOf`. */
export function usePresenceState(): LiveSnapshot['presence'] {
  return useLive((s) => s.presence);
}

/** The members on a board, this person included, with the task each has open. */
export function usePeopleOnBoard(projectKey: string, members: readonly PresenceMember[]): PresenceState[] {
  return peopleOf(usePresenceState(), members, projectKey);
}

/**
 * Tells the others where this tab is while the calling screen is shown: the board screen names its
 * project, the task panel its task (each its own field, so the order their effects run in is no matter).
 */
export function useSharePlace(field: keyof PresencePlace, value: string | null): void {
  useEffect(() => {
    liveStore.setPlace({ ...snapshot.place, [field]: value });
    return () => liveStore.setPlace({ ...snapshot.place, [field]: null });
  }, [field, value]);
}
