import type { ReactNode } from 'react';
import { classNames } from './class-names.ts';
import styles from './callout.module.css';

/** An error about a whole form or screen, announced when it appears. */
export function Alert({ children }: { children: ReactNode }) {
  return (
    <div className={classNames(styles.callout, styles.alert)} role="alert">
      {children}
    </div>
  );
}
