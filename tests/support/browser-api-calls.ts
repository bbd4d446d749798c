import type { Page } from 'playwright-core';
import { API_BASE_PATH, expectResponseMatchesSpec } from './openapi.ts';

/** Where the stand-in serves the API function and Auth (as hosted Supabase does). */
const FUNCTION_PREFIX = '/functions/v1/api';
const AUTH_PREFIX = '/auth/v1/';
/**
 * The only Storage requests a page may make: a PUT to a signed upload URL and a GET of a signed download
 * URL, both issued by the API (the files work). Any other Storage route (a query as the user, a list) is a
 * way out.
 */
const SIGNED_STORAGE = [
  { method: 'PUT', path: /^\/storage\/v1\/object\/upload\/sign\/(attachments|avatars)\// },
  { method: 'GET', path: /^\/storage\/v1\/object\/sign\/(attachments|avatars)\// },
];

/**
 * Everything a page sends to the backend, checked as it happens: a call to the API must be an operation
 * of openapi.yaml and get an answer the spec documents for it; anything else sent to the backend's origin
 * that is not Auth, or Storage through a signed URL, is a way out of the contract. The board and task-panel
 * work: "every API call the web makes is an operation in openapi.yaml". Each problem is added to `problems`
 * (pass the page's error list, which the test checks is empty at its end).
 */
export function watchApiCalls(page: Page, backendUrl: string, problems: string[] = []) {
  const backend = new URL(backendUrl).origin;
  const calls: string[] = [];
  page.on('response', async (response) => {
    const request = response.request();
    const url = new URL(request.url());
    if (url.origin !== backend || request.method() === 'OPTIONS') return;
    const where = `${request.method()} ${url.pathname}`;
    if (url.pathname.startsWith(AUTH_PREFIX)) return;
    const signed = SIGNED_STORAGE.some(
      ({ method, path }) => request.method() === method && path.test(url.pathname),
    );
    if (signed && url.searchParams.has('token')) return;
    if (!url.pathname.startsWith(`${FUNCTION_PREFIX}/`)) {
      problems.push(`${where}: not the API nor Auth`);
      return;
    }
    const path = API_BASE_PATH + url.pathname.slice(FUNCTION_PREFIX.length) + url.search;
    calls.push(`${request.method()} ${path} → ${response.status()}`);
    try {
      const text = response.status() === 204 || response.status() === 304 ? '' : await response.text();
      expectResponseMatchesSpec(
        { method: request.method(), path },
        { status: response.status(), headers: new Headers(await response.allHeaders()), text },
      );
    } catch (error) {
      // A page that navigated away can no longer read the body, nor can Chromium give back a body the page
      // read as a stream (the export): that is not the contract's fault.
      const message = error instanceof Error ? error.message : String(error);
      if (
        !/Target page, context or browser has been closed|No (data found for )?resource with given identifier/.test(
          message,
        )
      ) {
        problems.push(message);
      }
    }
  });
  return { calls, problems };
}
