import { describe, expect, it } from 'vitest';
import { parseCsv, sniffSeparator } from './csv-parse.ts';

const cellsOf = (text: string): string[][] => parseCsv(text).records.map((record) => record.cells);

describe('parseCsv', () => {
  it('reads quoted cells holding separators, doubled quotes and line breaks, with CRLF', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\nplain,,end\r\n';
    expect(cellsOf(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\r\nlines'],
      ['plain', '', 'end'],
    ]);
  });

  it('gives each record the line it starts on, skipping blank and trailing lines', () => {
    const records = parseCsv('h1,h2\n"a\nb",c\n\nd,e\n\n\n').records;
    expect(records.map((record) => record.line)).toEqual([1, 2, 5]);
  });

  it('drops a byte order mark and sniffs ; or tab from the header line', () => {
    expect(cellsOf('\ufeffTitle;Status\nA;B')).toEqual([
      ['Title', 'Status'],
      ['A', 'B'],
    ]);
    expect(sniffSeparator('Title\tStatus\tDue, or not\n')).toBe('\t');
    expect(sniffSeparator('"a;b;c",d\n')).toBe(',');
    expect(sniffSeparator('Title\n')).toBe(',');
  });

  it('says where a quoted cell is never closed', () => {
    const parsed = parseCsv('a,b\nx,"open\nmore');
    expect(parsed.problems).toEqual([
      {
        severity: 'error',
        location: 'line 2',
        message: 'a quoted cell is never closed: the file ends inside it',
      },
    ]);
    expect(parsed.records[1]?.cells).toEqual(['x', 'open\nmore']);
  });

  it('reads lone CR line ends', () => {
    expect(cellsOf('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
