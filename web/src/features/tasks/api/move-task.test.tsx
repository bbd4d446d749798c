import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/api-error.ts';
import { fetchMock } from '../../../testing/fetch-mock.ts';
import { moveErrorMessage } from '../components/board/move-error.ts';
import type { Task, TaskPages } from './list-tasks.ts';
import { useMoveTask } from './move-task.ts';

const task = (id: string, status: Task['status'], version = 1) =>
  ({ id, key: `WEB-${id}`, status, version }) as Task;
const a = task('a', 'todo', 4);
const b = task('b', 'todo');
const x = task('x', 'in_progress');

const column = (...tasks: Task[]): TaskPages => ({
  pages: [{ data: tasks, next_cursor: null }],
  pageParams: [undefined],
});
const ids = (pages: TaskPages | undefined) => pages?.pages.flatMap((page) => page.data.map((t) => t.id));

const todoKey = ['tasks', 'list', { status: 'todo' }];
const progressKey = ['tasks', 'list', { status: 'in_progress' }];
const countsKey = ['tasks', 'count', {}];

function setUp(status: number, body: object, keys = { todo: todoKey, progress: progressKey }) {
  const requests: Request[] = [];
  let answer: (response: Response) => void = () => undefined;
  fetchMock.mockImplementation((input) => {
    requests.push(input as Request);
    return new Promise<Response>((resolve) => {
      answer = resolve;
    });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(keys.todo, column(a, b));
  client.setQueryData(keys.progress, column(x));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useMoveTask(), { wrapper });
  const respond = () =>
    answer(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': status < 400 ? 'application/json' : 'application/problem+json' },
      }),
    );
  return { client, result, requests, respond };
}

const move = {
  task: a,
  body: { status: 'in_progress', after_id: 'x' },
  fromList: todoKey,
  toList: progressKey,
  counts: countsKey,
} as const;

describe('useMoveTask', () => {
  it('moves the card in the cache at once and sends If-Match with the version shown', async () => {
    const { client, result, requests } = setUp(200, { ...a, status: 'in_progress' });
    result.current.mutate({ ...move, body: { ...move.body } });

    await waitFor(() => expect(ids(client.getQueryData(progressKey))).toEqual(['x', 'a']));
    expect(ids(client.getQueryData(todoKey))).toEqual(['b']);
    await waitFor(() => expect(requests).toHaveLength(1));
    const request = requests[0];
    expect(request?.url).toMatch(/\/v1\/tasks\/a\/move$/);
    expect(request?.headers.get('If-Match')).toBe('"4"');
    expect(await request?.json()).toEqual({ status: 'in_progress', after_id: 'x' });
  });

  it('writes the task the API answers into its new column, and reads only the counts again', async () => {
    const board = (status: string) => [
      'tasks',
      'list',
      { slug: 'acme', key: 'WEB', status, sort: 'position' },
    ];
    const keys = { todo: board('todo'), progress: board('in_progress') };
    const answered = { ...a, status: 'in_progress', position: 'a1', version: 5 };
    const placed = { ...x, position: 'a0' };
    const { client, result, requests, respond } = setUp(200, answered, keys);
    client.setQueryData(keys.progress, column(placed));
    client.setQueryData(countsKey, { by_status: {}, by_project: [] });
    result.current.mutate({ ...move, fromList: keys.todo, toList: keys.progress, body: { ...move.body } });
    await waitFor(() => expect(requests).toHaveLength(1));

    respond();

    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const inProgress = client.getQueryData<TaskPages>(keys.progress)?.pages[0]?.data;
    expect(inProgress?.map((t) => [t.id, t.version])).toEqual([
      ['x', 1],
      ['a', 5],
    ]);
    expect(ids(client.getQueryData(keys.todo))).toEqual(['b']);
    expect(client.getQueryState(keys.progress)?.isInvalidated).toBe(false);
    expect(client.getQueryState(keys.todo)?.isInvalidated).toBe(false);
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('puts the card back on 412 and says someone changed it first', async () => {
    const { client, result, respond } = setUp(412, {
      code: 'precondition_failed',
      detail: 'The task changed since version 4.',
    });
    result.current.mutate({ ...move, body: { ...move.body } });
    await waitFor(() => expect(ids(client.getQueryData(progressKey))).toEqual(['x', 'a']));

    respond();

    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(ids(client.getQueryData(todoKey))).toEqual(['a', 'b']);
    expect(ids(client.getQueryData(progressKey))).toEqual(['x']);
    expect(result.current.error).toBeInstanceOf(ApiError);
    expect(moveErrorMessage(a, result.current.error)).toBe(
      'Someone changed WEB-a first — the board now shows their change.',
    );
  });

  it("shows the problem's detail for any other refusal", () => {
    const forbidden = new ApiError({
      status: 409,
      code: 'project_archived',
      detail: 'The project is archived.',
      requestId: null,
      errors: [],
    });
    expect(moveErrorMessage(a, forbidden)).toBe('WEB-a was not moved: The project is archived.');
  });
});
