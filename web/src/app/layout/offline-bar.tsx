import { useMutationState } from '@tanstack/react-query';
import { useLeaveWarning } from '../../features/tasks/drafts/use-leave-warning.ts';
import { useOnline } from '../../lib/offline/online-status.ts';
import styles from './offline-bar.module.css';

/**
 * Says, under the header, that the app is offline and what that means: what was loaded can be read, and
 * changes wait to be sent (TanStack Query pauses them until the browser is back online). While changes
 * wait, leaving the page asks first: they live in this page only.
 */
export function OfflineBar() {
  const online = useOnline();
  const waiting = useMutationState({
    filters: { status: 'pending', predicate: (m) => m.state.isPaused },
  }).length;
  useLeaveWarning(waiting > 0);
  if (online && waiting === 0) return null;
  return (
    <div className={styles.bar} role="status" data-offline={online ? undefined : ''}>
      <span className={styles.dot} aria-hidden="true" />
      {online ? (
        <span>Back online: sending {changes(waiting)}…</span>
      ) : (
        <span>
          <strong>You’re offline.</strong> What was loaded stays readable; changes will be sent when you’re
          back online.{waiting > 0 && <> {capitalised(changes(waiting))} waiting to send.</>}
        </span>
      )}
    </div>
  );
}

function changes(count: number): string {
  return count === 1 ? 'one change' : `${count} changes`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
