/**
 * A small RFC 4180 reader: records of cells, each with the line it starts on. Quoted cells may hold the
 * separator, doubled quotes and line breaks; lines end in CRLF, LF or CR; a UTF-8 byte order mark is
 * dropped; blank lines are skipped. The separator is sniffed from the header line: whichever of `,`,
 * `;` and tab appears most often outside quotes (a comma when none does). Lenient where files are
 * sloppy (a quote inside an unquoted cell is kept as text); an unclosed quote is an error.
 */
import type { ImportProblem } from './import-source.ts';

export interface CsvRecord {
  /** The 1-based line of the file the record starts on. */
  line: number;
  cells: string[];
}

export interface CsvParse {
  separator: string;
  records: CsvRecord[];
  problems: ImportProblem[];
}

const SEPARATORS = [',', ';', '\t'] as const;

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The separator the first line uses most, outside quotes. */
export function sniffSeparator(text: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((separator) => [separator, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const separator of SEPARATORS) {
    if ((counts.get(separator) ?? 0) > (counts.get(best) ?? 0)) best = separator;
  }
  return best;
}

/**
 * The records of `text`, up to `maxRecords` of them (all by default): the header alone is read with 1.
 */
export function parseCsv(rawText: string, maxRecords = Infinity): CsvParse {
  const text = stripBom(rawText);
  const separator = sniffSeparator(text);
  const records: CsvRecord[] = [];
  const problems: ImportProblem[] = [];
  let line = 1;
  let index = 0;

  while (index < text.length && records.length < maxRecords) {
    const startLine = line;
    const cells: string[] = [];
    let cell = '';
    let atRecordEnd = false;
    while (!atRecordEnd) {
      if (text[index] === '"') {
        // A quoted cell: up to the quote not followed by another.
        index += 1;
        let closed = false;
        while (index < text.length) {
          const next = text.indexOf('"', index);
          if (next < 0) break;
          const chunk = text.slice(index, next);
          line += countLineBreaks(chunk);
          cell += chunk;
          if (text[next + 1] === '"') {
            cell += '"';
            index = next + 2;
          } else {
            index = next + 1;
            closed = true;
            break;
          }
        }
        if (!closed) {
          const rest = text.slice(index);
          line += countLineBreaks(rest);
          cell += rest;
          index = text.length;
          problems.push({
            severity: 'error',
            location: `line ${startLine}`,
            message: 'a quoted cell is never closed: the file ends inside it',
          });
        }
      }
      // The unquoted cell, or what follows a quoted one, up to a separator or a line's end.
      let end = index;
      while (end < text.length) {
        const char = text[end];
        if (char === separator || char === '\n' || char === '\r') break;
        end += 1;
      }
      cell += text.slice(index, end);
      index = end;
      cells.push(cell);
      cell = '';
      const char = text[index];
      if (char === separator) {
        index += 1;
      } else {
        atRecordEnd = true;
        if (char === '\r' && text[index + 1] === '\n') index += 2;
        else if (char === '\r' || char === '\n') index += 1;
        if (char !== undefined) line += 1;
      }
    }
    const blank = cells.length === 1 && cells[0] === '';
    if (!blank) records.push({ line: startLine, cells });
  }
  return { separator, records, problems };
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) count += 1;
  }
  return count;
}
