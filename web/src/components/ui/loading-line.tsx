import type { ReactNode } from 'react';
import { Spinner } from './spinner.tsx';
import styles from './loading-line.module.css';

/** A spinner and what it is waiting for, announced to screen readers. */
export function LoadingLine({ children }: { children: ReactNode }) {
  return (
    <p className={styles.line} role="status">
      <Spinner />
      {children}
    </p>
  );
}
