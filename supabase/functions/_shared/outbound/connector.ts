/**
 * How a checked request reaches the network: a Connector opens a TCP connection (with TLS when asked) to
 * an address that has already been checked, never to a name, so a resolver answering differently the
 * second time cannot redirect it. Injected, so tests record every attempt and no test dials out.
 */

export interface ConnectTarget {
  /** An IP address, without brackets. */
  address: string;
  port: number;
  /** The URL's host, for SNI and the certificate check; null for plain http. */
  tls: { serverName: string } | null;
}

export interface Connection {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
  close(): void;
}

export type Connector = (target: ConnectTarget) => Promise<Connection>;
