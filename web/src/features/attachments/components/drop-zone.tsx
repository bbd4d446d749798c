import { useRef, useState, type DragEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { classNames } from '../../../components/ui/class-names.ts';
import { formatBytes } from '../../../lib/files/format-bytes.ts';
import { ATTACHMENT_MAX_BYTES } from '@api/attachments/attachments.schemas.ts';
import { ATTACHMENT_ACCEPT } from '../attachment-files.ts';
import styles from './attachments.module.css';

/** Where files are dropped, or picked with the "Attach files" button (a keyboard's way in). */
export function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    setOver(false);
    onFiles([...event.dataTransfer.files]);
  };

  return (
    <div
      className={classNames(styles.dropZone, over && styles.dropZoneOver)}
      data-testid="attachment-drop-zone"
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <Button onClick={() => input.current?.click()}>Attach files</Button>
      <span className={styles.dropHint}>
        or drop them here · up to {formatBytes(ATTACHMENT_MAX_BYTES)} each
      </span>
      <input
        ref={input}
        className={styles.fileInput}
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        tabIndex={-1}
        aria-label="Files to attach"
        data-testid="attachment-input"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
    </div>
  );
}
