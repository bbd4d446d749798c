import type { ReactNode } from 'react';
import styles from './page-header.module.css';

/** A screen's heading row: its title at the start, its actions at the end, wrapping on narrow screens. */
export function PageHeader({ children }: { children: ReactNode }) {
  return <header className={styles.header}>{children}</header>;
}
