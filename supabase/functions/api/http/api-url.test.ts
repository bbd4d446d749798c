import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { apiUrlFor, apiUrlOf } from './api-url.ts';

describe("the API's public address", () => {
  it('is where Supabase serves the function, with or without a trailing slash on SUPABASE_URL', () => {
    expect(apiUrlFor('https://abc.supabase.co')).toBe('https://abc.supabase.co/functions/v1/api');
    expect(apiUrlFor('http://127.0.0.1:54321/')).toBe('http://127.0.0.1:54321/functions/v1/api');
  });

  it("is the configured one, else the request's origin and /api", async () => {
    const app = new Hono().get('/api/v1/here', (c) =>
      c.json([apiUrlOf(c, 'https://abc.supabase.co/functions/v1/api'), apiUrlOf(c, undefined)]),
    );
    const response = await app.request('http://localhost:8000/api/v1/here?x=1');
    expect(await response.json()).toEqual([
      'https://abc.supabase.co/functions/v1/api',
      'http://localhost:8000/api',
    ]);
  });
});
