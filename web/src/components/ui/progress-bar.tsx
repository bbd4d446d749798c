import { classNames } from './class-names.ts';
import styles from './progress-bar.module.css';

interface ProgressBarProps {
  /** What is progressing, e.g. "Uploading notes.txt". */
  label: string;
  /** 0–100. */
  percent: number;
  className?: string;
}

/** A thin determinate progress bar, named for assistive technology. */
export function ProgressBar({ label, percent, className }: ProgressBarProps) {
  return (
    <span
      className={classNames(styles.bar, className)}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <span className={styles.fill} style={{ width: `${percent}%` }} />
    </span>
  );
}
