import { useEffect, useState } from 'react';
import { useConnectionState } from '../../../lib/realtime/live-store.ts';
import styles from './presence.module.css';

/** A first join that takes longer than this is worth a word; a quick one is not. */
const FIRST_JOIN_GRACE_MS = 3_000;

/**
 * "Reconnecting…" while the board is not live (the socket dropped, the browser is offline, the join was
 * refused), in a polite live region: the board still works, it just shows others' changes later.
 */
export function ConnectionStatus() {
  const state = useConnectionState();
  const [graceOver, setGraceOver] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), FIRST_JOIN_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);
  const text =
    state === 'reconnecting' ? 'Reconnecting…' : state === 'connecting' && graceOver ? 'Connecting…' : '';
  return (
    <span role="status" className={styles.status} data-connection={state}>
      {text && (
        <>
          <span className={styles.statusDot} aria-hidden="true" />
          {text}
        </>
      )}
    </span>
  );
}
