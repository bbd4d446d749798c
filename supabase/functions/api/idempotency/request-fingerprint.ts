/**
 * What makes two requests "the same request" for an Idempotency-Key (docs/product.md#api-conventions): the
 * method, the path, the query parameters and the body's JSON value. Whitespace, the order of an object's keys
 * and the order of distinct query parameters do not matter; the order of array items does.
 */

export interface FingerprintedRequest {
  method: string;
  path: string;
  /** As sent; parameters are sorted by name (values of one name keep their order). */
  query: readonly (readonly [string, string])[];
  /** The parsed JSON body, or null when there is none. */
  body: unknown;
}

/** SHA-256 (hex) of the request's canonical form. */
export async function requestFingerprint(request: FingerprintedRequest): Promise<string> {
  const query = [...request.query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = canonicalJson([request.method.toUpperCase(), request.path, query, request.body]);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** JSON with every object's keys in one fixed order, so equal values always serialize alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

// Recursive, and JSON.stringify is too: the body guard has refused bodies deeper than JSON_BODY_MAX_DEPTH.
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort();
  return Object.fromEntries(keys.map((key) => [key, sortedKeys(Reflect.get(value, key))]));
}
