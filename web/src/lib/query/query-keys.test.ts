import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryKeys } from './query-keys.ts';

interface TaskFilters {
  status?: string;
  assignee?: string;
}

const taskKeys = createQueryKeys<TaskFilters>('tasks');

describe('createQueryKeys', () => {
  it('builds keys from general to specific', () => {
    expect(taskKeys.all).toEqual(['tasks']);
    expect(taskKeys.lists()).toEqual(['tasks', 'list']);
    expect(taskKeys.list({ status: 'todo' })).toEqual(['tasks', 'list', { status: 'todo' }]);
    expect(taskKeys.details()).toEqual(['tasks', 'detail']);
    expect(taskKeys.detail('ENG-42')).toEqual(['tasks', 'detail', 'ENG-42']);
  });

  it('lets a prefix invalidate every list and leave the details alone', async () => {
    const client = new QueryClient();
    client.setQueryData(taskKeys.list({ status: 'todo' }), []);
    client.setQueryData(taskKeys.list({ assignee: 'me' }), []);
    client.setQueryData(taskKeys.detail('ENG-42'), { key: 'ENG-42' });
    client.setQueryData(createQueryKeys<object>('projects').lists(), []);

    await client.invalidateQueries({ queryKey: taskKeys.lists() });

    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(invalidated(taskKeys.list({ status: 'todo' }))).toBe(true);
    expect(invalidated(taskKeys.list({ assignee: 'me' }))).toBe(true);
    expect(invalidated(taskKeys.detail('ENG-42'))).toBe(false);
    expect(invalidated(['projects', 'list'])).toBe(false);
  });

  it('matches filters by value, in any key order', () => {
    const client = new QueryClient();
    client.setQueryData(taskKeys.list({ status: 'todo', assignee: 'me' }), ['cached']);

    expect(client.getQueryData(taskKeys.list({ assignee: 'me', status: 'todo' }))).toEqual(['cached']);
  });
});
