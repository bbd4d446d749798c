import { classNames } from './class-names.ts';
import styles from './status-dot.module.css';

export type StatusTone = 'ok' | 'error';

/** A coloured dot beside a status text; decorative, the text carries the meaning. */
export function StatusDot({ tone }: { tone: StatusTone }) {
  return <span className={classNames(styles.dot, styles[tone])} aria-hidden="true" />;
}
