import { describe, expect, it } from 'vitest';
import { exportDocumentWriter, type ExportHead, type ExportRow } from './export-document.ts';

const HEAD: ExportHead = {
  exportedAt: '2026-11-22T15:00:00.000Z',
  workspace: { object: 'workspace', slug: 'acme', name: 'Acme "Co"' },
};

/** The whole document, from rows written in the given batches. */
function documentOf(batches: readonly (readonly ExportRow[])[]): string {
  const writer = exportDocumentWriter(HEAD);
  return writer.open() + batches.map((rows) => writer.write(rows)).join('') + writer.close();
}

const row = (collection: ExportRow['collection'], value: unknown): ExportRow => ({
  collection,
  json: JSON.stringify(value),
});

describe('the export document', () => {
  it('writes every collection, empty ones as [], when there are no rows', () => {
    expect(JSON.parse(documentOf([]))).toEqual({
      object: 'export',
      format_version: 1,
      exported_at: HEAD.exportedAt,
      workspace: HEAD.workspace,
      members: [],
      labels: [],
      projects: [],
      tasks: [],
      comments: [],
      attachments: [],
    });
  });

  it('keeps rows in order across batches, and collections with none stay empty', () => {
    const text = documentOf([
      [row('members', { n: 1 }), row('members', { n: 2 })],
      [row('members', { n: 3 }), row('tasks', { n: 4 })],
      [],
      [row('tasks', { n: 5 })],
    ]);
    expect(JSON.parse(text)).toMatchObject({
      members: [{ n: 1 }, { n: 2 }, { n: 3 }],
      labels: [],
      projects: [],
      tasks: [{ n: 4 }, { n: 5 }],
      comments: [],
      attachments: [],
    });
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'object',
      'format_version',
      'exported_at',
      'workspace',
      'members',
      'labels',
      'projects',
      'tasks',
      'comments',
      'attachments',
    ]);
  });

  it('closes the last collection when it has rows', () => {
    expect(JSON.parse(documentOf([[row('attachments', { n: 1 })]]))).toMatchObject({
      comments: [],
      attachments: [{ n: 1 }],
    });
  });

  it('refuses a row of a collection it has already finished', () => {
    const writer = exportDocumentWriter(HEAD);
    writer.open();
    writer.write([row('tasks', {})]);
    expect(() => writer.write([row('labels', {})])).toThrow(/out of order: labels after tasks/);
  });
});
