/** What can go wrong once a checked request is under way, apart from the time limit (deadline.ts). */

/** No address of the destination accepted a connection, or the connection broke. */
export class ConnectionFailedError extends Error {
  override readonly name = 'ConnectionFailedError';
}

/** The server's answer is not HTTP/1.1 as this client reads it. */
export class BadResponseError extends Error {
  override readonly name = 'BadResponseError';
}
