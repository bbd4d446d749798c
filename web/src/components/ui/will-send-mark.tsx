import { useOnline } from '../../lib/offline/online-status.ts';
import styles from './will-send-mark.module.css';

/**
 * Beside something being sent: offline, it says that it waits and will go when the connection is back
 * (the request is paused, not failed). Online it shows nothing: the sending itself is shown where it is.
 */
export function WillSendMark({ sending }: { sending: boolean }) {
  const online = useOnline();
  if (!sending || online) return null;
  return (
    <span className={styles.mark} role="status">
      Will send when you’re back online
    </span>
  );
}
