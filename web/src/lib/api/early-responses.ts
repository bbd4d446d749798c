/**
 * Answers the inline script of index.html started before the app's code had loaded (the board's requests,
 * when the app opens on a board with a stored session). Each is served once, to the same GET under the same
 * access token, and only while the page is young; anything else goes to the network.
 */

/** What index.html leaves on `window.__earlyResponses`. */
export interface EarlyResponses {
  authorization: string;
  responses: Map<string, Promise<Response>>;
}

const SERVED_WITHIN_MS = 10_000;

export function takeEarlyResponse(
  request: Request,
  early: EarlyResponses | undefined,
  pageAgeMs: number,
): Promise<Response> | undefined {
  if (!early || request.method !== 'GET' || pageAgeMs > SERVED_WITHIN_MS) return undefined;
  if (request.headers.get('Authorization') !== early.authorization) return undefined;
  const pending = early.responses.get(request.url);
  early.responses.delete(request.url);
  return pending;
}

/** The fetch of the API client: an early answer when one fits, the network otherwise. */
export function fetchOrEarly(request: Request): Promise<Response> {
  const early = (window as { __earlyResponses?: EarlyResponses }).__earlyResponses;
  return takeEarlyResponse(request, early, performance.now()) ?? fetch(request);
}
