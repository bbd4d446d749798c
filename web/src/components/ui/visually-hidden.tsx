import type { ReactNode } from 'react';
import styles from './visually-hidden.module.css';

/**
 * Text for screen readers only. A class, not Radix's VisuallyHidden, which brings its Primitive and Slot
 * (2 KiB) onto every screen's first load through the header (decision 0029).
 */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className={styles.hidden}>{children}</span>;
}
