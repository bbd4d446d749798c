import { vi } from 'vitest';

/**
 * The network of the component tests: every request the typed API client sends reaches this mock, which
 * each test answers (`fetchMock.mockImplementation(…)`). setup-dom.ts installs it as `fetch` before a test
 * file imports anything, because the client keeps the `fetch` it found when it was made.
 */
export const fetchMock = vi.fn<typeof fetch>();

/** An answer as the API gives it: JSON, or problem+json for an error. */
export function apiAnswer(status: number, body: object): Response {
  const contentType = status >= 400 ? 'application/problem+json' : 'application/json';
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': contentType } });
}
