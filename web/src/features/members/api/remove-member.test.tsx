import { QueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { describe, expect, test } from 'vitest';
import { isLeavingWorkspace, onLeavingFailed, removeMutationOptions } from './remove-member.ts';

type Member = components['schemas']['Member'];

const ME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const memberWith = (user_id: string) => ({ user_id }) as Member;

/** Runs a removal through the cache, as useRemoveMember does, answered by `answer`. */
function remove(queryClient: QueryClient, slug: string, user_id: string, answer: Promise<unknown>) {
  const mutation = queryClient
    .getMutationCache()
    .build(queryClient, { ...removeMutationOptions(slug), mutationFn: () => answer, retry: false });
  return mutation.execute(memberWith(user_id)).catch(() => undefined);
}

describe('leaving a workspace, as its live updates see it', () => {
  test('is so while the removal of oneself is under way and after it succeeded, in that workspace only', async () => {
    const queryClient = new QueryClient();
    let answer!: (value: unknown) => void;
    const removal = remove(queryClient, 'acme', ME, new Promise((resolve) => (answer = resolve)));
    expect(isLeavingWorkspace(queryClient, 'acme', ME)).toBe(true);
    expect(isLeavingWorkspace(queryClient, 'other', ME)).toBe(false);
    answer(undefined);
    await removal;
    expect(isLeavingWorkspace(queryClient, 'acme', ME)).toBe(true);
  });

  test('is not so when one removes someone else', async () => {
    const queryClient = new QueryClient();
    await remove(queryClient, 'acme', OTHER, Promise.resolve());
    expect(isLeavingWorkspace(queryClient, 'acme', ME)).toBe(false);
  });

  test('ends when leaving fails, and says so to whoever listens', async () => {
    const queryClient = new QueryClient();
    const failures: string[] = [];
    const stop = onLeavingFailed(queryClient, 'acme', ME, () => failures.push('acme'));
    await remove(queryClient, 'acme', OTHER, Promise.reject(new Error('refused')));
    expect(failures).toEqual([]);
    await remove(queryClient, 'acme', ME, Promise.reject(new Error('last owner')));
    expect(failures).toEqual(['acme']);
    expect(isLeavingWorkspace(queryClient, 'acme', ME)).toBe(false);
    stop();
    await remove(queryClient, 'acme', ME, Promise.reject(new Error('again')));
    expect(failures).toEqual(['acme']);
  });
});
