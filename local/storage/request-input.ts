import type { IncomingMessage } from 'node:http';
import { readBody } from '../gateway/http.ts';
import { invalidKey, invalidRequest } from './errors.ts';

const MAX_JSON_BODY_BYTES = 1024 * 1024;
const MAX_KEY_LENGTH = 1024;
// eslint-disable-next-line no-control-regex -- control characters are exactly what a key may not hold
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** The JSON object a request carries (`{}` when it has no body). */
export async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(req, MAX_JSON_BODY_BYTES);
  if (body === null) throw invalidRequest('The request body is too large');
  if (body.length === 0) return {};
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  throw invalidRequest('The body must be a JSON object');
}

/** An object key as Storage accepts it: not empty, no control characters, at most 1024 characters. */
export function objectKey(name: unknown): string {
  if (
    typeof name !== 'string' ||
    name === '' ||
    name.length > MAX_KEY_LENGTH ||
    CONTROL_CHARACTERS.test(name)
  ) {
    throw invalidKey(String(name));
  }
  return name;
}

export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw invalidRequest(`body must have property '${name}'`);
  return value;
}

export function positiveInteger(value: unknown, name: string): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
    throw invalidRequest(`${name} must be a positive integer`);
  }
  return number;
}
