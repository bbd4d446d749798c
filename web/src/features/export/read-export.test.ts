import { describe, expect, it } from 'vitest';
import { exportFilename, IncompleteExportError, readExport } from './read-export.ts';

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}

describe('readExport', () => {
  it('reports the bytes as they arrive and counts what the document holds', async () => {
    const seen: number[] = [];
    const file = await readExport(streamOf('{"projects":[{}],', '"tasks":[{},{}]}'), null, (progress) =>
      seen.push(progress.received),
    );
    expect(seen).toEqual([17, 33]);
    expect(file).toMatchObject({ bytes: 33, tasks: 2, projects: 1 });
    expect(await file.blob.text()).toBe('{"projects":[{}],"tasks":[{},{}]}');
  });

  it('refuses a document cut short', async () => {
    await expect(readExport(streamOf('{"projects":[{}],', '"tasks":[{}'), null, () => {})).rejects.toThrow(
      IncompleteExportError,
    );
  });
});

describe('exportFilename', () => {
  it("takes Content-Disposition's name, or makes one from the slug", () => {
    expect(exportFilename('attachment; filename="acme-export.json"', 'acme')).toBe('acme-export.json');
    expect(exportFilename(null, 'acme')).toBe('acme-export.json');
  });
});
