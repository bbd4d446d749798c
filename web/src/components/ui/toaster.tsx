import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { whenQuiet } from '../../lib/scheduling/when-quiet.ts';

/**
 * sonner's `<Toaster/>`, loaded once a screen has shown (or at the first toast through ./toast.ts): no
 * screen needs it to show. Toasts raised before it mounts are shown when it does (sonner replays them).
 */
export function LazyToaster() {
  const wanted = useSyncExternalStore(subscribe, () => toasterWanted);
  const narrow = useSyncExternalStore(subscribeToWidth, isNarrow);
  useEffect(() => whenQuiet(mountToaster, { latestMs: 3_000 }), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* Feedback for every mutation: `toast`, announced politely to screen readers. Never over what the
          person is using: bottom left on a wide screen, clear of the task panel (a sheet on the right);
          at the top of a narrow one, above the board's quick-add and the panel's fields and buttons. */}
      <Toaster position={narrow ? 'top-center' : 'bottom-left'} theme="system" closeButton />
    </Suspense>
  );
}

/** Where sonner lays its toasts out across the screen's width. */
const NARROW = '(max-width: 600px)';
const isNarrow = () => window.matchMedia(NARROW).matches;

function subscribeToWidth(listener: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
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
