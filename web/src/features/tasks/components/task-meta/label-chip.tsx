import styles from './task-meta.module.css';

/** A label as a small chip with its colour as a dot, so any colour reads in light and dark. */
export function LabelChip({ name, color }: { name: string; color: string }) {
  return (
    <span className={styles.labelChip}>
      <span className={styles.labelDot} style={{ background: color }} aria-hidden="true" />
      {name}
    </span>
  );
}
