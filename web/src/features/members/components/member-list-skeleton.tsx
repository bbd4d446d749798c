import styles from './member-list.module.css';

/** Three grey rows while a list of people loads. */
export function MemberListSkeleton({ label = 'Loading members' }: { label?: string }) {
  return (
    <ul className={styles.list} aria-busy="true" aria-label={label}>
      {[0, 1, 2].map((row) => (
        <li key={row} className={styles.row}>
          <span className={styles.skeletonAvatar} />
          <span className={styles.skeletonText} />
        </li>
      ))}
    </ul>
  );
}
