import { describe, expect, it } from 'vitest';
import { fileType } from './file-type.ts';

describe('fileType', () => {
  it('keeps the type the browser gives, lower-cased and without parameters', () => {
    expect(fileType({ name: 'shot.png', type: 'image/png' })).toBe('image/png');
    expect(fileType({ name: 'notes.txt', type: 'Text/Plain; charset=utf-8' })).toBe('text/plain');
  });

  it('guesses an empty type from the extension, and leaves it empty when it cannot', () => {
    expect(fileType({ name: 'README.md', type: '' })).toBe('text/markdown');
    expect(fileType({ name: 'server.LOG', type: '' })).toBe('text/plain');
    expect(fileType({ name: 'Makefile', type: '' })).toBe('');
  });

  it("maps other systems' names to the standard ones", () => {
    expect(fileType({ name: 'logs.zip', type: 'application/x-zip-compressed' })).toBe('application/zip');
    expect(fileType({ name: 'rows.csv', type: 'application/vnd.ms-excel' })).toBe('text/csv');
    expect(fileType({ name: 'sheet.xls', type: 'application/vnd.ms-excel' })).toBe(
      'application/vnd.ms-excel',
    );
  });

  it('does not trust the extension over a type the browser gave', () => {
    expect(fileType({ name: 'setup.png', type: 'application/x-msdownload' })).toBe(
      'application/x-msdownload',
    );
  });
});
