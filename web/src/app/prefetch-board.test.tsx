import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../testing/fetch-mock.ts';
import { prefetchBoard } from './prefetch-board.ts';

function requestedPaths(): string[] {
  return fetchMock.mock.calls.map(([input]) => {
    const url = new URL((input as Request).url);
    return `${url.pathname.replace(/^.*\/v1/, '')}${url.search}`;
  });
}

describe('prefetchBoard', () => {
  it('asks for the project, its people, labels, counts and every column under the filters at once', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(200, { object: 'list', data: [], next_cursor: null })),
    );
    prefetchBoard(new QueryClient(), 'acme', 'WEB', { label: '4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09' });

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(11));
    const paths = requestedPaths();
    expect(paths).toContain('/workspaces/acme');
    expect(paths).toContain('/workspaces/acme/projects/WEB');
    expect(paths).toContain(
      '/workspaces/acme/projects/WEB/task-counts?label=4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09',
    );
    for (const status of ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled']) {
      expect(paths).toContain(
        `/workspaces/acme/projects/WEB/tasks?label=4d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09&status=${status}&sort=position&limit=50`,
      );
    }
  });

  it('leaves the columns to the list view when the list is shown', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(200, { object: 'list', data: [], next_cursor: null })),
    );
    prefetchBoard(new QueryClient(), 'acme', 'WEB', { view: 'list' });

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(4));
    expect(requestedPaths().some((path) => path.includes('/tasks'))).toBe(false);
  });
});
