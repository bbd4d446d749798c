import { Link } from '@tanstack/react-router';
import { paths } from '../../../config/paths.ts';
import { useUnreadCount } from '../api/unread-count.ts';
import { badgeText } from '../badge-text.ts';
import styles from './notification-bell.module.css';

/** The header's way to the inbox, with how many notifications are unread (kept live by the user topic). */
export function NotificationBell() {
  const count = useUnreadCount();
  const unread = count.data?.unread ?? 0;
  const badge = badgeText(count.data);
  return (
    <Link
      to={paths.inbox}
      className={styles.bell}
      aria-label={`Notifications, ${badge ?? '0'} unread`}
      activeProps={{ 'aria-current': 'page' }}
    >
      <BellIcon />
      {unread > 0 && (
        <span className={styles.badge} aria-hidden="true" data-testid="unread-badge">
          {badge}
        </span>
      )}
    </Link>
  );
}

function BellIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path
        d="M10 2.5a5 5 0 0 0-5 5v2.9l-1.3 2.3a.8.8 0 0 0 .7 1.3h11.2a.8.8 0 0 0 .7-1.3L15 10.4V7.5a5 5 0 0 0-5-5Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
      <path
        d="M8 16.2a2 2 0 0 0 4 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
