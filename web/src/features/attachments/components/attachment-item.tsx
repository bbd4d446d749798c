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
import { previewKind } from '../attachment-files.ts';
import { FileIcon } from './file-icon.tsx';
import { FilePreview } from './file-preview.tsx';
import styles from './attachments.module.css';

interface AttachmentItemProps {
  attachment: Attachment;
  uploaderName: string;
  canDelete: boolean;
  onDeleted?: () => void;
}

/**
 * One file: a thumbnail (images) or its kind, its name and size, download, delete. The name (and an
 * image's thumbnail) opens the preview of an image or a PDF.
 */
export function AttachmentItem({ attachment, uploaderName, canDelete, onDeleted }: AttachmentItemProps) {
  const queryClient = useQueryClient();
  const remove = useDeleteAttachment(attachment.task_id);
  const [downloading, setDownloading] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const pending = attachment.status === 'pending';
  const kind = pending ? null : previewKind(attachment.content_type);
  // An image's link draws its thumbnail; a PDF's is asked for when it is opened.
  const link = useAttachmentDownload(attachment.id, kind === 'image' || (kind === 'pdf' && previewing));

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
      {kind === 'image' ? (
        <Thumbnail attachment={attachment} url={link.data?.url} onOpen={() => setPreviewing(true)} />
      ) : (
        <span className={styles.thumb}>
          <FileIcon contentType={attachment.content_type} />
        </span>
      )}
      <span className={styles.itemText}>
        {kind ? (
          <button
            type="button"
            className={styles.nameButton}
            onClick={() => setPreviewing(true)}
            aria-label={`Open ${attachment.file_name}`}
          >
            <span className={styles.name} title={attachment.file_name}>
              {attachment.file_name}
            </span>
          </button>
        ) : (
          <span className={styles.name} title={attachment.file_name}>
            {attachment.file_name}
          </span>
        )}
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
      {kind && (
        <FilePreview
          open={previewing}
          onOpenChange={setPreviewing}
          fileName={attachment.file_name}
          kind={kind}
          url={link.data?.url}
          onDownload={() => void download()}
        />
      )}
    </li>
  );
}

interface ThumbnailProps {
  attachment: Attachment;
  /** The image's signed link, once known. */
  url: string | undefined;
  onOpen: () => void;
}

/** An image's thumbnail from its download link; a button that opens it large. */
function Thumbnail({ attachment, url, onOpen }: ThumbnailProps) {
  const [broken, setBroken] = useState(false);
  if (!url || broken) {
    return (
      <span className={styles.thumb} aria-busy={!url}>
        <FileIcon contentType={attachment.content_type} />
      </span>
    );
  }
  return (
    <button
      type="button"
      className={styles.thumbButton}
      onClick={onOpen}
      aria-label={`View ${attachment.file_name}`}
    >
      <img className={styles.thumbImage} src={url} alt="" onError={() => setBroken(true)} />
    </button>
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
