import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { whenQuiet } from '../../lib/scheduling/when-quiet.ts';

/**
 * sonner's `<Toaster/>`, loaded once a screen has shown (or at the first toast through ./toast.ts): no
 * screen needs it to show. Toasts raised before it mounts are shown when it does (sonner replays them).
 */
export function LazyToaster() {
  const wanted = useSyncExternalStore(subscribe, () => toasterWanted);
  useEffect(() => whenQuiet(mountToaster, { latestMs: 3_000 }), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* Feedback for every mutation: `toast`, announced politely to screen readers. */}
      <Toaster position="bottom-right" theme="system" closeButton />
    </Suspense>
  );
}

const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

let toasterWanted = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Mounts the toaster now (idempotent). */
export function mountToaster(): void {
  if (toasterWanted) return;
  toasterWanted = true;
  for (const listener of listeners) listener();
}
