import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { env } from '../config/env.ts';
import { AUTH_STORAGE_KEY } from '../lib/auth/stored-session.ts';
import { apiAnswer, fetchMock } from '../testing/fetch-mock.ts';
import { withEarlyBoardRules } from '../../board-early-requests.ts';
import indexHtml from '../../index.html?raw';
import { prefetchBoard } from './prefetch-board.ts';

/** The inline script of index.html that starts a board's requests before the app's code has loaded. */
function earlyScript(): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(withEarlyBoardRules(indexHtml))?.[1];
  if (!script) throw new Error('index.html has no inline script');
  return script.replaceAll('%VITE_SUPABASE_URL%', env.supabaseUrl);
}

function runEarlyScript(pathname: string, session: object | null): string[] {
  const requested: string[] = [];
  const storage = new Map([[AUTH_STORAGE_KEY, JSON.stringify(session)]]);
  const fakeWindow: Record<string, unknown> = {};
  const run = new Function('location', 'localStorage', 'fetch', 'window', earlyScript());
  run(
    { pathname, search: '', hash: '' },
    { getItem: (key: string) => storage.get(key) ?? null },
    (url: string) => {
      requested.push(url);
      return Promise.resolve(new Response('{}'));
    },
    fakeWindow,
  );
  return requested;
}

const SESSION = { access_token: 'token-1', expires_at: Date.now() / 1000 + 3600, user: { id: 'u1' } };

describe("index.html's early board requests", () => {
  it('asks for exactly what the board prefetches, so the app takes every answer', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(200, { object: 'list', data: [], next_cursor: null })),
    );
    prefetchBoard(new QueryClient(), 'acme', 'WEB', {});
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(11));
    const prefetched = fetchMock.mock.calls.map(([input]) => (input as Request).url);

    expect(runEarlyScript('/w/acme/p/WEB', SESSION).sort()).toEqual(prefetched.sort());
  });

  it('asks for nothing without a stored session, or away from a board', () => {
    expect(runEarlyScript('/w/acme/p/WEB', null)).toEqual([]);
    expect(runEarlyScript('/w/acme/p/WEB', { ...SESSION, expires_at: Date.now() / 1000 + 60 })).toEqual([]);
    expect(runEarlyScript('/w/acme/settings', SESSION)).toEqual([]);
  });
});
