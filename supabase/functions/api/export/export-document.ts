/**
 * The export document, written piece by piece as its rows arrive, so that nothing holds it whole:
 *
 *   {"object":"export","format_version":1,"exported_at":…,"workspace":{…},
 *    "members":[…],"labels":[…],"projects":[…],"tasks":[…],"comments":[…],"attachments":[…]}
 *
 * Rows come collection by collection, in EXPORT_COLLECTIONS order, each already JSON text (Postgres
 * builds it); a collection with no rows is still written, as `[]`. A row out of that order is a bug
 * upstream and throws rather than write a document that would not read back as it was meant.
 */
export const EXPORT_FORMAT_VERSION = 1;

export const EXPORT_COLLECTIONS = [
  'members',
  'labels',
  'projects',
  'tasks',
  'comments',
  'attachments',
] as const;
export type ExportCollection = (typeof EXPORT_COLLECTIONS)[number];

/** One item of a collection, as JSON text. */
export interface ExportRow {
  collection: ExportCollection;
  json: string;
}

export interface ExportHead {
  /** When the snapshot the document shows was taken, as the API writes timestamps. */
  exportedAt: string;
  /** The workspace, as GET /v1/workspaces/{slug} answers it. */
  workspace: unknown;
}

export interface ExportDocumentWriter {
  /** The document's opening, up to the workspace. */
  open(): string;
  /** The text for these rows, which follow the rows given before. */
  write(rows: readonly ExportRow[]): string;
  /** What closes the document: the end of the open collection, the empty ones left, the final brace. */
  close(): string;
}

export function exportDocumentWriter(head: ExportHead): ExportDocumentWriter {
  // The index in EXPORT_COLLECTIONS of the collection being written; -1 before the first.
  let current = -1;
  let itemsInCurrent = 0;

  const member = (index: number): string => `,${JSON.stringify(EXPORT_COLLECTIONS[index])}:[`;
  /** Ends the collection being written, then writes the ones before `index` as empty. */
  const skipTo = (index: number): string => {
    let text = current >= 0 ? ']' : '';
    for (let skipped = current + 1; skipped < index; skipped += 1) text += `${member(skipped)}]`;
    current = index;
    itemsInCurrent = 0;
    return text;
  };

  return {
    open: () =>
      `{"object":"export","format_version":${EXPORT_FORMAT_VERSION},` +
      `"exported_at":${JSON.stringify(head.exportedAt)},"workspace":${JSON.stringify(head.workspace)}`,
    write(rows) {
      let text = '';
      for (const row of rows) {
        const index = EXPORT_COLLECTIONS.indexOf(row.collection);
        if (index < current || index < 0) {
          throw new Error(`export rows out of order: ${row.collection} after ${EXPORT_COLLECTIONS[current]}`);
        }
        if (index > current) text += skipTo(index) + member(index);
        text += (itemsInCurrent > 0 ? ',' : '') + row.json;
        itemsInCurrent += 1;
      }
      return text;
    },
    close: () => `${skipTo(EXPORT_COLLECTIONS.length)}}`,
  };
}
