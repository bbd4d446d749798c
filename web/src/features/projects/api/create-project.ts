import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { projectKeys } from './query-keys.ts';

type CreateProject = components['schemas']['CreateProject'];

/** POST /v1/workspaces/{slug}/projects; the workspace's project list is read again after. */
export function useCreateProject(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProject) =>
      unwrap(api.POST('/v1/workspaces/{slug}/projects', { params: { path: { slug } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.list({ slug }) }),
  });
}
