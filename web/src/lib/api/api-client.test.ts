import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, setAccessTokenProvider, unwrap } from './api-client.ts';
import { ApiError } from './api-error.ts';

vi.mock('../../config/env.ts', () => ({
  env: { supabaseUrl: 'http://api.test', supabaseAnonKey: 'anon-key' },
}));

type Answer = Response | Error;

/** Calls GET /v1/health through the real client, with `answer` standing in for the network. */
function getHealth(answer: Answer) {
  const fetch = vi.fn(async (_request: Request) => {
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { fetch, result: unwrap(api.GET('/v1/health', { fetch })) };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject.');
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function problemResponse(status: number, problem: Record<string, unknown>): Response {
  return new Response(JSON.stringify(problem), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

afterEach(() => {
  setAccessTokenProvider(() => null);
});

describe('unwrap', () => {
  it('returns the data of a successful answer', async () => {
    const { result } = getHealth(jsonResponse(200, { status: 'ok', database: 'ok' }));

    await expect(result).resolves.toEqual({ status: 'ok', database: 'ok' });
  });

  it('calls the API under /functions/v1/api of the Supabase URL', async () => {
    const { fetch, result } = getHealth(jsonResponse(200, { status: 'ok', database: 'ok' }));
    await result;

    expect(fetch.mock.calls[0]?.[0].url).toBe('http://api.test/functions/v1/api/v1/health');
  });

  it('throws an ApiError carrying the fields of a problem+json answer', async () => {
    const { result } = getHealth(
      problemResponse(503, {
        type: 'https://tasklane.dev/problems/unavailable',
        title: 'Service unavailable',
        status: 503,
        code: 'unavailable',
        detail: 'The database is not reachable right now. Try again shortly.',
        request_id: 'req-1',
      }),
    );

    const error = await rejectionOf(result);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 503,
      code: 'unavailable',
      detail: 'The database is not reachable right now. Try again shortly.',
      message: 'The database is not reachable right now. Try again shortly.',
      requestId: 'req-1',
      errors: [],
    });
  });

  it('keeps the field errors of a validation problem', async () => {
    const fieldError = { path: 'body.name', code: 'too_long', message: 'At most 80 characters.' };
    const { result } = getHealth(
      problemResponse(422, {
        type: 'https://tasklane.dev/problems/validation_failed',
        title: 'Validation failed',
        status: 422,
        code: 'validation_failed',
        detail: 'One field breaks a rule.',
        request_id: 'req-2',
        errors: [fieldError],
      }),
    );

    await expect(result).rejects.toMatchObject({ code: 'validation_failed', errors: [fieldError] });
  });

  it('throws an ApiError named after the status when the body is an HTML page', async () => {
    const page = new Response('<html><body>Bad gateway</body></html>', {
      status: 502,
      statusText: 'Bad Gateway',
      headers: { 'Content-Type': 'text/html', 'X-Request-Id': 'req-3' },
    });

    const error = await rejectionOf(getHealth(page).result);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      code: 'unavailable',
      detail: 'The API answered 502 Bad Gateway without details.',
      requestId: 'req-3',
      errors: [],
    });
  });

  it('does not mistake JSON of another shape for a problem', async () => {
    const gatewayAnswer = jsonResponse(404, {
      code: 'NOT_FOUND',
      message: 'Requested function was not found',
    });

    const error = await rejectionOf(getHealth(gatewayAnswer).result);

    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: null });
  });

  it('answers a 5xx without a known code as internal', async () => {
    const error = await rejectionOf(getHealth(new Response('boom', { status: 500 })).result);

    expect(error).toMatchObject({ status: 500, code: 'internal' });
  });

  it('throws a network_error ApiError when the request never gets an answer', async () => {
    const failure = new TypeError('fetch failed');

    const error = await rejectionOf(getHealth(failure).result);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      code: 'network_error',
      detail: 'Could not reach the API. Check your connection and try again.',
      requestId: null,
      cause: failure,
    });
  });

  it('throws an invalid_response ApiError when a successful answer is not JSON', async () => {
    const spaFallback = new Response('<!doctype html><title>Tasklane</title>', {
      status: 200,
      headers: { 'Content-Type': 'text/html' },
    });

    await expect(getHealth(spaFallback).result).rejects.toMatchObject({
      status: 0,
      code: 'invalid_response',
    });
  });

  it('rethrows a cancellation as it is, not as an API failure', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');

    const error = await rejectionOf(getHealth(abort).result);

    expect(error).toBe(abort);
  });
});

describe('setAccessTokenProvider', () => {
  it('sends no Authorization header while there is no session', async () => {
    const { fetch, result } = getHealth(jsonResponse(200, { status: 'ok', database: 'ok' }));
    await result;

    expect(fetch.mock.calls[0]?.[0].headers.has('Authorization')).toBe(false);
  });

  it("sends the session's access token as a bearer token", async () => {
    setAccessTokenProvider(async () => 'access-token');
    const { fetch, result } = getHealth(jsonResponse(200, { status: 'ok', database: 'ok' }));
    await result;

    expect(fetch.mock.calls[0]?.[0].headers.get('Authorization')).toBe('Bearer access-token');
  });
});
