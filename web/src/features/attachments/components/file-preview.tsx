import { lazy, Suspense } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import type { PreviewKind } from '../attachment-files.ts';
import styles from './attachments.module.css';

// pdf.js is large: it loads when a PDF is first opened, never with the board.
const PdfViewer = lazy(() => import('./pdf-viewer.tsx').then((module) => ({ default: module.PdfViewer })));

interface FilePreviewProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fileName: string;
  kind: Exclude<PreviewKind, null>;
  /** The file's signed link (undefined while it is asked for): an image is shown from it, a PDF read. */
  url: string | undefined;
  onDownload: () => void;
}

/**
 * A file large, over everything, with Download beside its name: an image as the browser draws it, a PDF
 * drawn by pdf.js in this page. Neither is ever opened on the Storage origin, where a file that is not
 * what it claims could run as a page (decision 0031).
 */
export function FilePreview({ open, onOpenChange, fileName, kind, url, onDownload }: FilePreviewProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={fileName}
      variant="lightbox"
      headerActions={
        <Button onClick={onDownload} aria-label={`Download ${fileName}`}>
          Download
        </Button>
      }
    >
      {url === undefined ? (
        <LoadingLine>Opening {fileName}…</LoadingLine>
      ) : kind === 'image' ? (
        <img className={styles.lightboxImage} src={url} alt={fileName} />
      ) : (
        <Suspense fallback={<LoadingLine>Opening the PDF…</LoadingLine>}>
          <PdfViewer url={url} fileName={fileName} onDownload={onDownload} />
        </Suspense>
      )}
    </Dialog>
  );
}
