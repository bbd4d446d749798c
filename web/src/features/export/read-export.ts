/** What a finished export holds: the file to save, its name and what it counts. */
export interface ExportFile {
  blob: Blob;
  filename: string;
  bytes: number;
  tasks: number;
  projects: number;
}

/** How far a download has come: bytes received, of `total` when the server said how many. */
export interface ExportProgress {
  received: number;
  total: number | null;
}

/** The file name `Content-Disposition` gives, or `<slug>-export.json`. */
export function exportFilename(contentDisposition: string | null, slug: string): string {
  const match = /filename="([^"]+)"/.exec(contentDisposition ?? '');
  return match?.[1] ?? `${slug}-export.json`;
}

/**
 * Reads a streamed export to its end, reporting the bytes as they arrive, then checks that it parses:
 * the API cuts a failed export short, so a document that does not parse is an incomplete one.
 */
export async function readExport(
  body: ReadableStream<Uint8Array>,
  total: number | null,
  onProgress: (progress: ExportProgress) => void,
): Promise<Omit<ExportFile, 'filename'>> {
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // A fetch body's chunks are never on shared memory.
    chunks.push(value as Uint8Array<ArrayBuffer>);
    received += value.byteLength;
    onProgress({ received, total });
  }
  const blob = new Blob(chunks, { type: 'application/json' });
  const document = parseExport(await blob.text());
  return { blob, bytes: received, tasks: document.tasks, projects: document.projects };
}

function parseExport(text: string): { tasks: number; projects: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new IncompleteExportError(cause);
  }
  const { tasks, projects } = (parsed ?? {}) as { tasks?: unknown; projects?: unknown };
  if (!Array.isArray(tasks) || !Array.isArray(projects)) throw new IncompleteExportError(undefined);
  return { tasks: tasks.length, projects: projects.length };
}

export class IncompleteExportError extends Error {
  override readonly name = 'IncompleteExportError';
  constructor(cause: unknown) {
    super('The export stopped before it was complete, so it was not saved. Export again.', { cause });
  }
}
