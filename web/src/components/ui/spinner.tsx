import styles from './spinner.module.css';

/** A decorative spinner; the text next to it says what is loading. */
export function Spinner() {
  return <span className={styles.spinner} aria-hidden="true" />;
}
