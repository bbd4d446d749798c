import type { ReactNode } from 'react';
import { classNames } from './class-names.ts';
import styles from './callout.module.css';

interface NoticeProps {
  children: ReactNode;
  onDismiss?: () => void;
}

/** A confirmation that something worked, read out politely. */
export function Notice({ children, onDismiss }: NoticeProps) {
  return (
    <div className={classNames(styles.callout, styles.notice)} role="status">
      <p className={styles.text}>{children}</p>
      {onDismiss && (
        <button type="button" className={styles.dismiss} onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
