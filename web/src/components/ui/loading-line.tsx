import type { ReactNode } from 'react';
import { useOnline } from '../../lib/offline/online-status.ts';
import { Spinner } from './spinner.tsx';
import styles from './loading-line.module.css';

/** A spinner and what it is waiting for, announced to screen readers; offline, that it waits for the network. */
export function LoadingLine({ children }: { children: ReactNode }) {
  const online = useOnline();
  return (
    <p className={styles.line} role="status">
      {online ? <Spinner /> : null}
      {children}
      {online ? null : <span> This loads when you’re back online.</span>}
    </p>
  );
}
