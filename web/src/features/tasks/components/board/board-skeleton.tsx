import { TASK_STATUSES } from '@shared/vocabulary/spec-values.ts';
import styles from './board.module.css';

/** The board's shape while the project loads: a title bar and six empty columns. */
export function BoardSkeleton() {
  return (
    <div className={styles.board} aria-busy="true" aria-label="Loading the board">
      {TASK_STATUSES.map((status) => (
        <div key={status} className={styles.column}>
          <div className={styles.columnHeader} />
          <div className={styles.columnBody}>
            <div className={styles.skeleton}>
              <div className={styles.skeletonCard} />
              <div className={styles.skeletonCard} />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
