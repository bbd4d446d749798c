import { StorageError } from './errors.ts';

/** Where a v2 listing resumes: after `after`, in the order the first page asked for. */
export interface ListV2Cursor {
  after: string;
  sortOrder?: string;
  sortColumn?: string;
  /** The last row's value of a timestamp sort column, ISO. */
  sortValueAfter?: string;
}

/** Storage's continuation token: base64 of `<letter>:<value>` lines, one per part that is set. */
const PART_LETTERS: [string, keyof ListV2Cursor][] = [
  ['l', 'after'],
  ['o', 'sortOrder'],
  ['c', 'sortColumn'],
  ['a', 'sortValueAfter'],
];

export function encodeListV2Cursor(cursor: ListV2Cursor): string {
  const lines = PART_LETTERS.filter(([, part]) => cursor[part]).map(
    ([letter, part]) => `${letter}:${cursor[part]}`,
  );
  return Buffer.from(lines.join('\n')).toString('base64');
}

export function decodeListV2Cursor(token: string): ListV2Cursor {
  const cursor: ListV2Cursor = { after: '', sortOrder: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)/.exec(line);
    const part = PART_LETTERS.find(([letter]) => letter === match?.[1])?.[1];
    if (!match || !part) throw invalidCursor();
    cursor[part] = match[2] ?? '';
  }
  return cursor;
}

const invalidCursor = () =>
  new StorageError('400', 'InvalidParameter', 'InvalidParameter', 'Invalid Parameter continuation token');
