import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { taskKeys } from './query-keys.ts';

type CreateTask = components['schemas']['CreateTask'];

/** POST /v1/workspaces/{slug}/projects/{key}/tasks; the lists and counts are read again after. */
export function useCreateTask(slug: string, key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTask) =>
      unwrap(
        api.POST('/v1/workspaces/{slug}/projects/{key}/tasks', { params: { path: { slug, key } }, body }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: taskKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: taskKeys.counts() }),
      ]),
  });
}
