import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { labelKeys } from './query-keys.ts';

type CreateLabel = components['schemas']['CreateLabel'];

/** POST /v1/workspaces/{slug}/labels; the workspace's label list is read again after. */
export function useCreateLabel(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLabel) =>
      unwrap(api.POST('/v1/workspaces/{slug}/labels', { params: { path: { slug } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: labelKeys.list({ slug }) }),
  });
}
