import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, fetchMock } from '../../../testing/fetch-mock.ts';
import { notificationKeys } from './query-keys.ts';
import { useTaskWatchers } from './task-watchers.ts';

const TASK_ID = '0b7e6d5c-4a39-4b28-8c17-f6e5d4c3b2a1';

describe('useTaskWatchers', () => {
  it('is not read again when a notification arrives: the task may be gone, and the answer a 404', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(apiAnswer(200, { object: 'list', watching: true, data: [] })),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useTaskWatchers(TASK_ID), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await client.invalidateQueries({ queryKey: notificationKeys.all });

    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
