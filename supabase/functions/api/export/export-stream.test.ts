import { describe, expect, it } from 'vitest';
import { ReaderGone, streamOnceStarted, type StreamedWork, type TextSink } from './export-stream.ts';

type Run = StreamedWork['run'];

/** Streams `run`, collecting what reaches onLateFailure. */
function stream(run: Run, stallTimeoutMs = 5_000, deadlineMs = 60_000) {
  const lateFailures: unknown[] = [];
  const body = streamOnceStarted({
    run,
    onLateFailure: (error) => lateFailures.push(error),
    stallTimeoutMs,
    deadlineMs,
  });
  return { body, lateFailures };
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    () => 'resolved',
    () => 'rejected',
  );

/** Resolves when a turn of the event loop has passed, so that pending promise reactions have run. */
const aMoment = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('streamOnceStarted', () => {
  it('hands over the body once started, and it holds everything written, then ends', async () => {
    const { body, lateFailures } = stream(async (start, sink) => {
      start();
      await sink.write('{"a":');
      await sink.write('1}');
    });
    expect(await new Response(await body).text()).toBe('{"a":1}');
    expect(lateFailures).toEqual([]);
  });

  it('rejects with the failure of work that has not started: there is no body yet', async () => {
    const refusal = new Error('forbidden');
    const { body, lateFailures } = stream(() => Promise.reject(refusal));
    await expect(body).rejects.toBe(refusal);
    expect(lateFailures).toEqual([]);
  });

  it('cuts the body short after a late failure, and reports it', async () => {
    const broken = new Error('connection lost');
    const { body, lateFailures } = stream(async (start, sink) => {
      start();
      await sink.write('{"tasks":[');
      throw broken;
    });
    await expect(new Response(await body).text()).rejects.toThrow();
    expect(lateFailures).toEqual([broken]);
  });

  it('makes a write wait until the reader takes it', async () => {
    let sink: TextSink | undefined;
    const { body } = stream(async (start, given) => {
      sink = given;
      start();
      await new Promise(() => undefined);
    });
    const reader = (await body).getReader();
    if (!sink) throw new Error('the work did not run');
    const first = sink.write('first');
    await aMoment();
    expect(await Promise.race([settled(first), 'pending'])).toBe('pending');

    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first');
    expect(await settled(first)).toBe('resolved');
  });

  it('gives up on a reader that takes nothing, failing the work with ReaderGone', async () => {
    const { body, lateFailures } = stream(async (start, sink) => {
      start();
      for (;;) await sink.write('x'.repeat(1_000));
    }, 30);
    await body;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lateFailures).toEqual([expect.any(ReaderGone)]);
    expect(String(lateFailures[0])).toMatch(/took nothing for 30 ms/);
  });

  it('gives up at the deadline on a reader that keeps taking a little, failing the work with ReaderGone', async () => {
    const { body, lateFailures } = stream(
      async (start, sink) => {
        start();
        for (;;) await sink.write('x');
      },
      40,
      150,
    );
    const reader = (await body).getReader();
    const began = Date.now();
    let cutOff = false;
    while (!cutOff && Date.now() - began < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      cutOff = (await reader.read().catch(() => undefined)) === undefined;
    }
    expect(cutOff).toBe(true);
    await aMoment();
    expect(lateFailures).toEqual([expect.any(ReaderGone)]);
    expect(String(lateFailures[0])).toMatch(/deadline/);
  });

  it('fails the work with ReaderGone when the reader cancels', async () => {
    let written = 0;
    const { body, lateFailures } = stream(async (start, sink) => {
      start();
      for (;;) {
        await sink.write('chunk');
        written += 1;
      }
    });
    const reader = (await body).getReader();
    await reader.read();
    await reader.cancel('client closed the connection');
    await aMoment();
    expect(lateFailures).toEqual([expect.any(ReaderGone)]);
    expect(written).toBeLessThan(5);
  });
});
