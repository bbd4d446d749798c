import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import styles from './attachments.module.css';

// The worker is a file of this app's own origin (the page's policy allows no other script).
GlobalWorkerOptions.workerSrc = workerUrl;

/** More pages than this are not drawn: the preview is for a look, the download for reading it all. */
const MAX_PAGES = 30;

type Loaded = { kind: 'loading' } | { kind: 'ready'; doc: PDFDocumentProxy } | { kind: 'failed' };

/**
 * A PDF drawn page by page onto canvases by pdf.js, in this page: nothing of the file runs (no scripting,
 * no XFA forms), and it is read with one plain request from its signed link.
 */
export function PdfViewer({
  url,
  fileName,
  onDownload,
}: {
  url: string;
  fileName: string;
  onDownload: () => void;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    const task = getDocument({ url, enableXfa: false, disableRange: true, disableStream: true });
    task.promise.then(
      (doc) => setLoaded({ kind: 'ready', doc }),
      () => setLoaded({ kind: 'failed' }),
    );
    return () => void task.destroy();
  }, [url]);

  if (loaded.kind === 'loading') return <LoadingLine>Opening the PDF…</LoadingLine>;
  if (loaded.kind === 'failed') {
    return (
      <div className={styles.previewFailed} role="alert">
        <p>{fileName} cannot be shown here. Download it to open it on your computer.</p>
        <Button variant="primary" onClick={onDownload}>
          Download
        </Button>
      </div>
    );
  }
  const { doc } = loaded;
  const shown = Math.min(doc.numPages, MAX_PAGES);
  return (
    <div className={styles.pdfPages} data-testid="pdf-viewer">
      {Array.from({ length: shown }, (_, index) => (
        <PdfPage key={index} doc={doc} number={index + 1} of={doc.numPages} />
      ))}
      {doc.numPages > shown && (
        <p className={styles.pdfMore}>
          The first {shown} of {doc.numPages} pages. Download the file to read the rest.
        </p>
      )}
    </div>
  );
}

/** One page, as wide as the viewer, sharp on high-density screens. */
function PdfPage({ doc, number, of }: { doc: PDFDocumentProxy; number: number; of: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let cancelRender: (() => void) | undefined;
    void doc.getPage(number).then(async (page) => {
      const target = canvas.current;
      if (cancelled || !target) return;
      const width = target.parentElement?.clientWidth ?? 800;
      const scale = width / page.getViewport({ scale: 1 }).width;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      target.width = Math.floor(viewport.width);
      target.height = Math.floor(viewport.height);
      target.style.aspectRatio = `${viewport.width} / ${viewport.height}`;
      const render = page.render({ canvas: target, viewport });
      cancelRender = () => render.cancel();
      await render.promise.then(
        () => !cancelled && setDrawn(true),
        () => undefined,
      );
    });
    return () => {
      cancelled = true;
      cancelRender?.();
    };
  }, [doc, number]);
  return (
    <canvas
      ref={canvas}
      className={styles.pdfPage}
      role="img"
      aria-label={`Page ${number} of ${of}`}
      aria-busy={!drawn}
      data-drawn={drawn ? '' : undefined}
    />
  );
}
