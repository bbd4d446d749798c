import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { formatTimestamp, relativeTime } from '../../../lib/dates/relative-time.ts';
import { formatBytes } from '../../../lib/files/format-bytes.ts';
import { useDeleteAttachment } from '../api/delete-attachment.ts';
import { attachmentDownloadQueryOptions, useAttachmentDownload } from '../api/get-attachment-download.ts';
import type { Attachment } from '../api/list-attachments.ts';
import { isImage } from '../attachment-files.ts';
import { FileIcon } from './file-icon.tsx';
import { Lightbox } from './lightbox.tsx';
import styles from './attachments.module.css';

interface AttachmentItemProps {
  attachment: Attachment;
  uploaderName: string;
  canDelete: boolean;
  onDeleted?: () => void;
}

/** One file: a thumbnail (images, opening the lightbox) or its kind, its name and size, download, delete. */
export function AttachmentItem({ attachment, uploaderName, canDelete, onDeleted }: AttachmentItemProps) {
  const queryClient = useQueryClient();
  const remove = useDeleteAttachment(attachment.task_id);
  const [downloading, setDownloading] = useState(false);
  const pending = attachment.status === 'pending';

  const download = async () => {
    setDownloading(true);
    try {
      const link = await queryClient.fetchQuery(attachmentDownloadQueryOptions(attachment.id));
      startDownload(link.url, attachment.file_name);
    } catch (error) {
      toast.error(`${attachment.file_name} could not be downloaded: ${describeError(error)}`);
    } finally {
      setDownloading(false);
    }
  };
  const onDelete = () =>
    remove.mutate(attachment, {
      onSuccess: () => {
        toast.success(`${attachment.file_name} deleted`);
        onDeleted?.();
      },
      onError: (error) => toast.error(`${attachment.file_name} was not deleted: ${describeError(error)}`),
    });

  return (
    <li className={styles.item} data-testid="attachment" data-status={attachment.status}>
      {isImage(attachment.content_type) && !pending ? (
        <Thumbnail attachment={attachment} />
      ) : (
        <span className={styles.thumb}>
          <FileIcon contentType={attachment.content_type} />
        </span>
      )}
      <span className={styles.itemText}>
        <span className={styles.name} title={attachment.file_name}>
          {attachment.file_name}
        </span>
        <span className={styles.meta}>
          {pending ? (
            'Upload not finished'
          ) : (
            <>
              {formatBytes(attachment.size_bytes)} · {uploaderName} ·{' '}
              <time dateTime={attachment.created_at} title={formatTimestamp(attachment.created_at)}>
                {relativeTime(attachment.created_at)}
              </time>
            </>
          )}
        </span>
      </span>
      <span className={styles.actions}>
        {!pending && (
          <Button
            variant="link"
            onClick={() => void download()}
            disabled={downloading}
            aria-label={`Download ${attachment.file_name}`}
          >
            Download
          </Button>
        )}
        {canDelete && (
          <ConfirmDialog
            trigger={
              <Button
                variant="link"
                className={styles.deleteLink}
                disabled={remove.isPending}
                aria-label={`Delete ${attachment.file_name}`}
              >
                Delete
              </Button>
            }
            title={`Delete ${attachment.file_name}?`}
            description="The file is deleted for everyone in the workspace. This cannot be undone."
            confirm="Delete file"
            onConfirm={onDelete}
          />
        )}
      </span>
    </li>
  );
}

/** An image's thumbnail from its download link; a button that opens it large. */
function Thumbnail({ attachment }: { attachment: Attachment }) {
  const link = useAttachmentDownload(attachment.id);
  const [open, setOpen] = useState(false);
  const [broken, setBroken] = useState(false);
  if (!link.data || broken) {
    return (
      <span className={styles.thumb} aria-busy={link.isPending}>
        <FileIcon contentType={attachment.content_type} />
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        className={styles.thumbButton}
        onClick={() => setOpen(true)}
        aria-label={`View ${attachment.file_name}`}
      >
        <img className={styles.thumbImage} src={link.data.url} alt="" onError={() => setBroken(true)} />
      </button>
      <Lightbox open={open} onOpenChange={setOpen} title={attachment.file_name} src={link.data.url} />
    </>
  );
}

/**
 * Hands the signed link to the browser as a download: Storage serves it with `Content-Disposition:
 * attachment` (asked for with `download=`, which the signature does not cover), so the page stays.
 */
function startDownload(url: string, fileName: string): void {
  const target = new URL(url);
  if (!target.searchParams.has('download')) target.searchParams.set('download', fileName);
  const link = document.createElement('a');
  link.href = target.toString();
  link.rel = 'noopener';
  link.click();
}
