import { Avatar, EmptyAvatar } from '../../../components/ui/avatar.tsx';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { formatTimestamp, relativeTime } from '../../../lib/dates/relative-time.ts';
import type { Notification } from '../api/list-notifications.ts';
import { mentionText } from '../../../lib/mentions/mention-text.ts';
import { notificationSentence } from '../notification-sentence.ts';
import styles from './inbox.module.css';

export interface NotificationRowProps {
  notification: Notification;
  selected: boolean;
  /** A member's name in the notification's workspace, for the mentions of its comment. */
  nameOf: (userId: string) => string | undefined;
  onOpen: () => void;
  onToggleRead: () => void;
  onToggleArchived: () => void;
  onSelect: () => void;
}

/** One notification: who, what in a sentence, the comment's first words, when, and whether it is unread. */
export function NotificationRow({
  notification,
  selected,
  nameOf,
  onOpen,
  onToggleRead,
  onToggleArchived,
  onSelect,
}: NotificationRowProps) {
  const unread = notification.read_at === null;
  const excerpt = notification.comment?.body ? mentionText(notification.comment.body, nameOf) : null;
  return (
    <li
      className={styles.row}
      data-notification-id={notification.id}
      data-unread={unread || undefined}
      data-selected={selected || undefined}
      onFocus={onSelect}
    >
      {notification.actor ? (
        <Avatar name={notification.actor.display_name} id={notification.actor.id} size="medium" decorative />
      ) : (
        <EmptyAvatar size="medium" />
      )}
      <button type="button" className={styles.open} onClick={onOpen} data-row-open="">
        <span className={styles.sentence}>{notificationSentence(notification)}</span>
        {excerpt && <span className={styles.excerpt}>{excerpt}</span>}
      </button>
      <span className={styles.side}>
        <time
          className={styles.time}
          dateTime={notification.updated_at}
          title={formatTimestamp(notification.updated_at)}
        >
          {relativeTime(notification.updated_at)}
        </time>
        {unread ? (
          <span className={styles.dot}>
            <VisuallyHidden>Unread</VisuallyHidden>
          </span>
        ) : (
          <span className={styles.noDot} aria-hidden="true" />
        )}
      </span>
      <span className={styles.actions}>
        <span className={styles.workspace}>{notification.workspace.name}</span>
        <button type="button" className={styles.textButton} onClick={onToggleRead}>
          {unread ? 'Mark read' : 'Mark unread'}
        </button>
        <button type="button" className={styles.textButton} onClick={onToggleArchived}>
          {notification.archived_at ? 'Unarchive' : 'Archive'}
        </button>
      </span>
    </li>
  );
}
