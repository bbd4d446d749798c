import { Button } from '../../../components/ui/button.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { formatBytes } from '../../../lib/files/format-bytes.ts';
import type { Upload } from '../use-attachment-uploads.ts';
import styles from './attachments.module.css';

interface UploadRowProps {
  upload: Upload;
  onCancel: (key: string) => void;
  onDismiss: (key: string) => void;
}

/** A file on its way up: its progress, then "Checking…"; or why it was refused, until dismissed. */
export function UploadRow({ upload, onCancel, onDismiss }: UploadRowProps) {
  if (upload.phase === 'failed') {
    return (
      <li className={styles.uploadFailed} data-testid="upload-failed">
        <span className={styles.uploadMessage} role="alert">
          {upload.message}
        </span>
        <Button
          variant="link"
          className={styles.dismiss}
          onClick={() => onDismiss(upload.key)}
          aria-label={`Dismiss: ${upload.fileName}`}
        >
          Dismiss
        </Button>
      </li>
    );
  }
  const loaded =
    upload.phase === 'uploading' ? upload.loaded : upload.phase === 'completing' ? upload.size : 0;
  const percent = upload.size ? Math.min(100, Math.round((loaded / upload.size) * 100)) : 0;
  const status =
    upload.phase === 'starting'
      ? 'Starting…'
      : upload.phase === 'completing'
        ? 'Checking…'
        : `${formatBytes(loaded)} of ${formatBytes(upload.size)}`;
  return (
    <li className={styles.upload} data-testid="upload" data-phase={upload.phase}>
      <span className={styles.uploadTop}>
        <span className={styles.name}>{upload.fileName}</span>
        <span className={styles.uploadStatus}>{status}</span>
        {upload.phase !== 'completing' && (
          <Button
            variant="link"
            onClick={() => onCancel(upload.key)}
            aria-label={`Cancel: ${upload.fileName}`}
          >
            Cancel
          </Button>
        )}
      </span>
      <ProgressBar label={`Uploading ${upload.fileName}`} percent={percent} />
    </li>
  );
}
