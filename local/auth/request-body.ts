import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { readBody } from '../gateway/http.ts';
import { AuthError, validationFailed } from './errors.ts';

const BODY_LIMIT_BYTES = 1024 * 1024;

/** The JSON body, checked against `schema`; unknown fields the clients send (captcha, PKCE) are ignored. */
export async function readJsonBody<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  const raw = await readBody(req, BODY_LIMIT_BYTES);
  if (raw === null) throw new AuthError(413, 'request_entity_too_large', 'Request body too large');
  let json: unknown;
  try {
    json = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${reason}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationFailed(describeIssues(parsed.error));
  return parsed.data;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
}
