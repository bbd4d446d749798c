import styles from './logo-mark.module.css';

/** Tasklane's mark: three columns of a board. Decorative; put the name beside it. */
export function LogoMark() {
  return (
    <svg
      className={styles.mark}
      viewBox="0 0 32 32"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <rect x="7" y="8" width="5" height="16" rx="2" fill="#fff" />
      <rect x="14" y="8" width="5" height="11" rx="2" fill="#fff" opacity="0.85" />
      <rect x="21" y="8" width="5" height="7" rx="2" fill="#fff" opacity="0.7" />
    </svg>
  );
}
