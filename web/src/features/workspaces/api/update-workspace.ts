import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { workspaceKeys } from './query-keys.ts';

type Workspace = components['schemas']['Workspace'];
export type WorkspacePatch = components['schemas']['UpdateWorkspace'];

export interface UpdateWorkspaceVariables {
  /** The workspace as the caller saw it: its version goes in `If-Match`. */
  workspace: Workspace;
  patch: WorkspacePatch;
}

/**
 * PATCH /v1/workspaces/{slug} with `If-Match`. The answer is cached under its (maybe new) slug; the list of
 * the caller's workspaces is read again, since it shows names and slugs.
 */
export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ workspace, patch }: UpdateWorkspaceVariables) =>
      unwrap(
        api.PATCH('/v1/workspaces/{slug}', {
          params: { path: { slug: workspace.slug }, header: ifMatch(workspace) },
          body: patch,
        }),
      ),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceKeys.detail(workspace.slug), workspace);
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.lists() });
    },
  });
}
