import styles from './attachments.module.css';

const SHORT_NAMES: Readonly<Record<string, string>> = {
  'application/pdf': 'PDF',
  'application/zip': 'ZIP',
  'application/json': 'JSON',
  'text/csv': 'CSV',
  'text/markdown': 'MD',
  'text/plain': 'TXT',
};

/** A page with the file's kind written on it, where an image would show itself. */
export function FileIcon({ contentType }: { contentType: string }) {
  return (
    <span className={styles.fileIcon} data-kind={SHORT_NAMES[contentType] ?? 'FILE'} aria-hidden="true">
      <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d="M6 2.75h8l4.25 4.25v14.25H6z" strokeLinejoin="round" />
        <path d="M14 2.75V7h4.25" strokeLinejoin="round" />
      </svg>
      <span className={styles.fileKind}>{SHORT_NAMES[contentType] ?? 'FILE'}</span>
    </span>
  );
}
