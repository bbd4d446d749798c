import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { REQUEST_ID_MAX_LENGTH, requestIds } from './request-id.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const app = new Hono<AppEnv>().use(requestIds()).get('/', (c) => c.text(c.var.requestId));

async function idFor(incoming?: string): Promise<{ header: string | null; seen: string }> {
  const response = await app.request(
    '/',
    incoming === undefined ? {} : { headers: { 'X-Request-Id': incoming } },
  );
  return { header: response.headers.get('X-Request-Id'), seen: await response.text() };
}

describe('request ids', () => {
  it('keeps a sane incoming id and echoes it', async () => {
    expect(await idFor('gateway-7f3a_01==')).toEqual({
      header: 'gateway-7f3a_01==',
      seen: 'gateway-7f3a_01==',
    });
  });

  it('makes a UUID when there is none', async () => {
    const { header, seen } = await idFor();
    expect(header).toMatch(UUID);
    expect(seen).toBe(header);
  });

  it.each([
    ['spaces', 'a b'],
    ['markup', '<script>'],
    ['a log-line breaker', 'a"}{"level":"error'],
    ['more than the maximum length', 'x'.repeat(REQUEST_ID_MAX_LENGTH + 1)],
  ])('replaces an id with %s by a UUID', async (_name, incoming) => {
    const { header } = await idFor(incoming);
    expect(header).toMatch(UUID);
  });

  it('accepts an id of exactly the maximum length', async () => {
    const longest = 'x'.repeat(REQUEST_ID_MAX_LENGTH);
    expect((await idFor(longest)).header).toBe(longest);
  });
});
