import { describe, expect, it } from 'vitest';
import { takeEarlyResponse, type EarlyResponses } from './early-responses.ts';

const URL_A = 'http://api.test/functions/v1/api/v1/workspaces/acme';

function early(): EarlyResponses {
  return {
    authorization: 'Bearer token-1',
    responses: new Map([[URL_A, Promise.resolve(new Response('{}'))]]),
  };
}

function get(url: string, token = 'token-1', method = 'GET'): Request {
  return new Request(url, { method, headers: { Authorization: `Bearer ${token}` } });
}

describe('takeEarlyResponse', () => {
  it('serves an early answer once, to the same GET under the same token', () => {
    const started = early();
    expect(takeEarlyResponse(get(URL_A), started, 50)).toBeInstanceOf(Promise);
    expect(takeEarlyResponse(get(URL_A), started, 60)).toBeUndefined();
  });

  it('leaves other requests, other people and a late ask to the network', () => {
    expect(takeEarlyResponse(get(`${URL_A}/labels`), early(), 50)).toBeUndefined();
    expect(takeEarlyResponse(get(URL_A, 'token-2'), early(), 50)).toBeUndefined();
    expect(takeEarlyResponse(get(URL_A, 'token-1', 'DELETE'), early(), 50)).toBeUndefined();
    expect(takeEarlyResponse(get(URL_A), early(), 60_000)).toBeUndefined();
    expect(takeEarlyResponse(get(URL_A), undefined, 50)).toBeUndefined();
  });
});
