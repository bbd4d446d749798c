/**
 * Reads a connection's bytes by line or by count, each read bounded by the deadline, keeping what the
 * last read brought beyond what was asked for.
 */
import type { Deadline } from './deadline.ts';
import { BadResponseError } from './outbound-errors.ts';

const LF = 0x0a;
const CR = 0x0d;

export class ByteReader {
  private buffered = new Uint8Array(0);
  private ended = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly deadline: Deadline,
  ) {}

  /** The next line without its CRLF (or bare LF), or null when the stream ends before one. */
  async readLine(maxBytes: number): Promise<string | null> {
    for (;;) {
      const end = this.buffered.indexOf(LF);
      if (end >= 0) return this.takeLine(end);
      if (this.buffered.length > maxBytes) throw new BadResponseError('A response line is too long.');
      if (!(await this.fill())) return null;
    }
  }

  /** Up to `maxBytes` of what comes next, or null at the end of the stream. */
  async read(maxBytes: number): Promise<Uint8Array | null> {
    if (this.buffered.length === 0 && !(await this.fill())) return null;
    const taken = this.buffered.subarray(0, maxBytes);
    this.buffered = this.buffered.subarray(taken.length);
    return taken;
  }

  private takeLine(end: number): string {
    const line = this.buffered.subarray(0, end > 0 && this.buffered[end - 1] === CR ? end - 1 : end);
    this.buffered = this.buffered.subarray(end + 1);
    return new TextDecoder('latin1').decode(line);
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.deadline.race(this.reader.read());
    if (done) {
      this.ended = true;
      return false;
    }
    const joined = new Uint8Array(this.buffered.length + value.length);
    joined.set(this.buffered);
    joined.set(value, this.buffered.length);
    this.buffered = joined;
    return true;
  }
}
