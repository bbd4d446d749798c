/** The status line and header fields of an HTTP/1.1 response, past any interim 1xx answers. */
import type { ByteReader } from './byte-reader.ts';
import { BadResponseError } from './outbound-errors.ts';

export interface ResponseHead {
  status: number;
  /** Lower-case names; repeated fields joined with `, `. */
  headers: Record<string, string>;
}

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_HEADER_COUNT = 128;
const STATUS_LINE = /^HTTP\/1\.[01] ([1-9][0-9]{2})(?: .*)?$/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/;
const SWITCHING_PROTOCOLS = 101;

export async function readResponseHead(reader: ByteReader): Promise<ResponseHead> {
  for (;;) {
    const head = await readOneHead(reader);
    const interim = head.status < 200 && head.status !== SWITCHING_PROTOCOLS;
    if (!interim) return head;
  }
}

async function readOneHead(reader: ByteReader): Promise<ResponseHead> {
  const budget = new HeadBudget();
  const statusLine = await reader.readLine(budget.left);
  if (statusLine === null) throw new BadResponseError('The server closed the connection without answering.');
  budget.spend(statusLine);
  const status = STATUS_LINE.exec(statusLine)?.[1];
  if (status === undefined)
    throw new BadResponseError('The answer does not start with an HTTP/1.1 status line.');
  return { status: Number(status), headers: await readHeaders(reader, budget) };
}

async function readHeaders(reader: ByteReader, budget: HeadBudget): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (let count = 0; count <= MAX_HEADER_COUNT; count++) {
    const line = await reader.readLine(budget.left);
    if (line === null) throw new BadResponseError('The server closed the connection inside the headers.');
    budget.spend(line);
    if (line === '') return headers;
    const [, name, value] = HEADER_LINE.exec(line) ?? [];
    if (name === undefined || value === undefined) throw new BadResponseError('A header line is malformed.');
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  throw new BadResponseError('The answer has too many headers.');
}

/** What is left of MAX_HEAD_BYTES for the status line and headers together. */
class HeadBudget {
  left = MAX_HEAD_BYTES;

  spend(line: string): void {
    this.left -= line.length + 2;
    if (this.left < 0) throw new BadResponseError("The answer's headers are too long.");
  }
}
