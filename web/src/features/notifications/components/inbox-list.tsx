import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { describeError } from '../../../lib/api/api-error.ts';
import { isTyping } from '../../../lib/keyboard/is-typing.ts';
import type { Notification } from '../api/list-notifications.ts';
import { useUpdateNotification, type NotificationChange } from '../api/update-notification.ts';
import { groupByDay } from '../group-by-day.ts';
import { NotificationRow } from './notification-row.tsx';
import styles from './inbox.module.css';

interface InboxListProps {
  notifications: Notification[];
  /** A member's name in a workspace, by user id: for the mentions in comments. */
  nameOf: (workspaceSlug: string, userId: string) => string | undefined;
  /** Go to what the notification tells of (it is marked read here first). */
  onOpen: (notification: Notification) => void;
}

/**
 * The inbox's notifications by day, unread first within a day. Keyboard, as in Gmail: j and k move the
 * selection (and the focus, so Enter opens), e archives or unarchives, u marks read or unread.
 */
export function InboxList({ notifications, nameOf, onOpen }: InboxListProps) {
  const updateNotification = useUpdateNotification();
  // The change shows at once; if the API refuses it, it is undone and the person told why.
  const update = {
    mutate: (change: NotificationChange) =>
      updateNotification.mutate(change, { onError: (error) => toast.error(describeError(error)) }),
  };
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const days = groupByDay(notifications);
  const ordered = days.flatMap((day) => day.notifications);

  const open = (notification: Notification) => {
    if (notification.read_at === null) update.mutate({ notification, read: true });
    onOpen(notification);
  };
  const toggleRead = (notification: Notification) =>
    update.mutate({ notification, read: notification.read_at === null });
  const toggleArchived = (notification: Notification) =>
    update.mutate({ notification, archived: notification.archived_at === null });

  const focusRow = (id: string) =>
    listRef.current
      ?.querySelector<HTMLButtonElement>(`[data-notification-id="${id}"] [data-row-open]`)
      ?.focus();

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
    const index = ordered.findIndex((each) => each.id === selectedId);
    const selected = ordered[index];
    if (event.key === 'j' || event.key === 'k') {
      const next =
        ordered[event.key === 'j' ? Math.min(index + 1, ordered.length - 1) : Math.max(index - 1, 0)];
      if (!next) return;
      event.preventDefault();
      setSelectedId(next.id);
      focusRow(next.id);
    } else if (event.key === 'e' && selected) {
      event.preventDefault();
      // The next one takes the selection, as the archived one leaves the list.
      const after = ordered[index + 1] ?? ordered[index - 1];
      toggleArchived(selected);
      if (after) {
        setSelectedId(after.id);
        focusRow(after.id);
      }
    } else if (event.key === 'u' && selected) {
      event.preventDefault();
      toggleRead(selected);
    }
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  return (
    <div ref={listRef} className={styles.days}>
      {days.map((day) => (
        <section key={day.label} className={styles.day} aria-label={day.label}>
          <h2 className={styles.dayTitle}>{day.label}</h2>
          <ul className={styles.list}>
            {day.notifications.map((notification) => (
              <NotificationRow
                key={notification.id}
                notification={notification}
                selected={notification.id === selectedId}
                nameOf={(userId) => nameOf(notification.workspace.slug, userId)}
                onOpen={() => open(notification)}
                onToggleRead={() => toggleRead(notification)}
                onToggleArchived={() => toggleArchived(notification)}
                onSelect={() => setSelectedId(notification.id)}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Rows standing in while the inbox loads. */
export function InboxSkeleton() {
  return (
    <ul className={styles.list} aria-label="Loading your notifications">
      {[0, 1, 2, 3].map((row) => (
        <li key={row} className={styles.skeletonRow} />
      ))}
    </ul>
  );
}
