/**
 * A response body written by work that must keep running while the body is read: the export's
 * transaction stays open, holding its cursor, until the last byte is out. The work calls `start()` once
 * the answer is sure to be a success; until then a failure is thrown to the caller, which answers it as
 * any error. After it, the status is sent and cannot change: a failure cuts the body short (the reader
 * sees an error, or a truncated document) and is reported to `onLateFailure`.
 *
 * A write waits until the reader takes it (backpressure), so only the chunk being written is held. A
 * reader that takes nothing for `stallTimeoutMs` is given up on, so that a stalled client cannot keep a
 * transaction, and its database connection, forever; and so is one still reading `deadlineMs` after the
 * body was made, since a client that takes a little now and then resets the stall timer every time.
 */

export interface TextSink {
  /** Writes `text`; resolves once the reader is ready for more, rejects when the reader is gone. */
  write(text: string): Promise<void>;
}

/** The reader stopped reading (went away or stalled): the work ends, and nobody is left to tell. */
export class ReaderGone extends Error {
  constructor(why: string, options?: ErrorOptions) {
    super(why, options);
    this.name = 'ReaderGone';
  }
}

export interface StreamedWork {
  run(start: () => void, sink: TextSink): Promise<void>;
  onLateFailure(error: unknown): void;
  stallTimeoutMs: number;
  /** How long after the body is made the last write must be done: the export's total deadline. */
  deadlineMs: number;
}

/** Runs the work; resolves to the body once it has called `start()`, rejects if it fails before. */
export function streamOnceStarted(work: StreamedWork): Promise<ReadableStream<Uint8Array>> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const sink = textSink(writer, work.stallTimeoutMs, Date.now() + work.deadlineMs);
  return new Promise((resolve, reject) => {
    let started = false;
    const start = () => {
      started = true;
      resolve(readable);
    };
    work.run(start, sink).then(
      () => writer.close().catch(() => undefined),
      (error: unknown) => {
        writer.abort(error).catch(() => undefined);
        if (started) work.onLateFailure(error);
        else reject(error);
      },
    );
  });
}

/** @param deadline when (epoch ms) the sink stops taking writes, however the reader is doing. */
function textSink(
  writer: WritableStreamDefaultWriter<Uint8Array>,
  stallTimeoutMs: number,
  deadline: number,
): TextSink {
  const encoder = new TextEncoder();
  return {
    async write(text) {
      const left = deadline - Date.now();
      const why =
        left < stallTimeoutMs
          ? 'the export reached its deadline'
          : `the reader took nothing for ${stallTimeoutMs} ms`;
      if (left <= 0) throw new ReaderGone(why);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ReaderGone(why)), Math.min(left, stallTimeoutMs));
      });
      try {
        await Promise.race([
          writer.write(encoder.encode(text)).catch((reason: unknown) => {
            throw new ReaderGone('the reader went away', { cause: reason });
          }),
          stalled,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
