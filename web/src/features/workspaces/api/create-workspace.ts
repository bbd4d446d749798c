import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { workspaceKeys } from './query-keys.ts';

type CreateWorkspace = components['schemas']['CreateWorkspace'];

/** POST /v1/workspaces: the caller becomes its owner; the list of their workspaces is read again. */
export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWorkspace) => unwrap(api.POST('/v1/workspaces', { body })),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceKeys.detail(workspace.slug), workspace);
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.lists() });
    },
  });
}
