import { Button } from '../../../components/ui/button.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { useOnline } from '../../../lib/offline/online-status.ts';
import { useAttachments } from '../api/list-attachments.ts';
import { useAttachmentUploads } from '../use-attachment-uploads.ts';
import { AttachmentItem } from './attachment-item.tsx';
import { DropZone } from './drop-zone.tsx';
import { UploadRow } from './upload-row.tsx';
import styles from './attachments.module.css';

export interface AttachmentsSectionProps {
  taskId: string;
  /** Whether the caller may attach files (members and up; viewers read and download only). */
  canAttach: boolean;
  /** Owners and admins may delete anyone's file; the others only their own. */
  canDeleteAny: boolean;
  meId: string | null;
  /** An uploader's name as shown (someone who left included). */
  nameOf: (userId: string | null) => string;
  /** After a file was attached or deleted: the task's activity has something new to show. */
  onChanged?: () => void;
}

/** The task's files: a drop zone for those who may attach, the uploads under way, then the files. */
export function AttachmentsSection({
  taskId,
  canAttach,
  canDeleteAny,
  meId,
  nameOf,
  onChanged,
}: AttachmentsSectionProps) {
  const attachments = useAttachments(taskId);
  const online = useOnline();
  const { uploads, attach, cancel, dismiss } = useAttachmentUploads(taskId, onChanged);
  // A file being uploaded here is shown by its upload's row, not also as pending in the list.
  const uploading = new Set(uploads.map((upload) => upload.attachmentId));
  const files = (attachments.data ?? []).filter((attachment) => !uploading.has(attachment.id));

  return (
    <section className={styles.section} aria-labelledby="task-attachments-title" data-testid="attachments">
      <h3 id="task-attachments-title" className="section-heading">
        Attachments{files.length > 0 && <span className={styles.count}> · {files.length}</span>}
      </h3>
      {canAttach &&
        (online ? (
          <DropZone onFiles={attach} />
        ) : (
          <p className={styles.empty}>Files can be attached when you’re back online.</p>
        ))}
      {uploads.length > 0 && (
        <ul className={styles.uploads} aria-label="Uploads">
          {uploads.map((upload) => (
            <UploadRow key={upload.key} upload={upload} onCancel={cancel} onDismiss={dismiss} />
          ))}
        </ul>
      )}
      {attachments.error ? (
        <div className={styles.error} role="alert">
          <p>The attachments could not be loaded: {describeError(attachments.error)}</p>
          <Button onClick={() => void attachments.refetch()} disabled={attachments.isFetching}>
            Try again
          </Button>
        </div>
      ) : attachments.isPending && !online ? (
        <p className={styles.empty}>The files load when you’re back online.</p>
      ) : attachments.isPending ? (
        <ul className={styles.list} aria-label="Loading the attachments">
          <li className={styles.skeleton} />
        </ul>
      ) : files.length === 0 ? (
        !canAttach && <p className={styles.empty}>No files attached.</p>
      ) : (
        <ul className={styles.list} aria-label="Attached files">
          {files.map((attachment) => (
            <AttachmentItem
              key={attachment.id}
              attachment={attachment}
              uploaderName={nameOf(attachment.uploaded_by)}
              canDelete={canAttach && (canDeleteAny || attachment.uploaded_by === meId)}
              onDeleted={onChanged}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
