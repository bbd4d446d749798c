import { useMemo } from 'react';
import {
  draftKey,
  readDraft,
  removeDraft,
  writeDraft,
  type Draft,
  type DraftBase,
  type DraftField,
  type DraftPlace,
} from './draft-storage.ts';

/** One field's draft: read it when the editor opens, keep each change, discard it once saved or dropped. */
export interface DraftSlot {
  read: () => Draft | null;
  keep: (text: string, base: DraftBase | null) => void;
  discard: () => void;
}

const NO_SLOT: DraftSlot = { read: () => null, keep: () => undefined, discard: () => undefined };

/** The draft of `field` of the task `place` names; keeps nothing while the person is not known. */
export function useDraft(place: DraftPlace | null, field: DraftField): DraftSlot {
  const key = place ? draftKey(place, field) : null;
  return useMemo(() => {
    if (key === null) return NO_SLOT;
    return {
      read: () => readDraft(window.localStorage, key),
      keep: (text, base) => writeDraft(window.localStorage, key, { text, base, savedAt: Date.now() }),
      discard: () => removeDraft(window.localStorage, key),
    };
  }, [key]);
}
