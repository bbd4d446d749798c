/**
 * A network for the outbound tests that never leaves the process: a resolver answering from a table, a
 * connector recording every attempt, and connections whose server side is a script of bytes.
 */
import { connect as connectTcp } from 'node:net';
import { Duplex } from 'node:stream';
import type {
  ConnectTarget,
  Connection,
  Connector,
} from '../../supabase/functions/_shared/outbound/connector.ts';
import type { Resolver } from '../../supabase/functions/_shared/outbound/destination.ts';

/** What a fake host resolves to: addresses, a sequence of answers (one per lookup), or a failure. */
export type FakeAnswer = string[] | { sequence: string[][] } | Error;

export function fakeResolver(answers: Record<string, FakeAnswer>): { resolve: Resolver; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolver = (hostname) => {
    const lookup = asked.filter((name) => name === hostname).length;
    asked.push(hostname);
    const answer = answers[hostname] ?? [];
    if (answer instanceof Error) return Promise.reject(answer);
    if (Array.isArray(answer)) return Promise.resolve(answer);
    return Promise.resolve(answer.sequence[Math.min(lookup, answer.sequence.length - 1)] ?? []);
  };
  return { resolve, asked };
}

/** A connector that records each attempt and answers with `open(target)`, or refuses by default. */
export function recordingConnector(open?: (target: ConnectTarget) => Connection | Promise<Connection>): {
  connect: Connector;
  attempts: ConnectTarget[];
} {
  const attempts: ConnectTarget[] = [];
  const connect: Connector = async (target) => {
    attempts.push(target);
    if (!open) throw new Error('The fake network connects nowhere.');
    return open(target);
  };
  return { connect, attempts };
}

export interface ServerScript {
  /** What the server sends, in this order, each as one read. */
  sends: (string | Uint8Array)[];
  /** After that: close the connection, stay silent, or send filler bytes forever. */
  then: 'close' | 'hang' | 'endless';
}

export interface ScriptedConnection extends Connection {
  /** What the client wrote, decoded as UTF-8. */
  written(): string;
  readonly closed: boolean;
  /** How many bytes the server side sent, endless filler included. */
  readonly sentBytes: number;
}

const FILLER = new Uint8Array(64 * 1024).fill(0x61);

export function scriptedConnection(script: ServerScript): ScriptedConnection {
  const writes: Uint8Array[] = [];
  const state = { closed: false, sentBytes: 0 };
  const queue = script.sends.map((part) =>
    typeof part === 'string' ? new TextEncoder().encode(part) : part,
  );
  const readable = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift() ?? (script.then === 'endless' ? FILLER : undefined);
      if (next) {
        state.sentBytes += next.length;
        controller.enqueue(next);
      } else if (script.then === 'close') controller.close();
      // 'hang': nothing is enqueued, so the read waits until the client gives up.
      return script.then === 'hang' && !next ? new Promise<void>(() => undefined) : undefined;
    },
  });
  const writable = new WritableStream<Uint8Array>({ write: (chunk) => void writes.push(chunk) });
  return {
    readable,
    writable,
    close: () => {
      state.closed = true;
    },
    written: () => Buffer.concat(writes).toString('utf8'),
    get closed() {
      return state.closed;
    },
    get sentBytes() {
      return state.sentBytes;
    },
  };
}

/**
 * A real connection over node:net, in place of Deno's connector: for receivers on loopback only (the
 * dispatcher's tests and the stand-in's own run on Deno). Plain TCP: no test asks for TLS.
 */
export const loopbackConnector: Connector = (target) =>
  new Promise<Connection>((resolve, reject) => {
    if (target.tls) return reject(new Error('The loopback connector speaks plain TCP only.'));
    if (target.address !== '127.0.0.1' && target.address !== '::1') {
      return reject(new Error(`The loopback connector connects to loopback only, not ${target.address}.`));
    }
    const socket = connectTcp({ host: target.address, port: target.port });
    socket.once('error', reject);
    socket.once('connect', () => {
      const { readable, writable } = Duplex.toWeb(socket);
      resolve({
        readable: readable as ReadableStream<Uint8Array>,
        writable: writable as WritableStream<Uint8Array>,
        close: () => socket.destroy(),
      });
    });
  });
