import styles from './member-list.module.css';

/** Three grey rows while the members load. */
export function MemberListSkeleton() {
  return (
    <ul className={styles.list} aria-busy="true" aria-label="Loading members">
      {[0, 1, 2].map((row) => (
        <li key={row} className={styles.row}>
          <span className={styles.skeletonAvatar} />
          <span className={styles.skeletonText} />
        </li>
      ))}
    </ul>
  );
}
