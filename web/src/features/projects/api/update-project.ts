import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { projectKeys } from './query-keys.ts';

type Project = components['schemas']['Project'];
type UpdateProject = components['schemas']['UpdateProject'];

export interface UpdateProjectVariables {
  /** The project as it was shown: its key names it, its version goes in `If-Match`. */
  project: Project;
  patch: UpdateProject;
}

/**
 * PATCH /v1/workspaces/{slug}/projects/{key} with `If-Match`: rename, change the key, archive or
 * unarchive. Every list and detail of projects is read again after (a new key is a new address).
 */
export function useUpdateProject(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ project, patch }: UpdateProjectVariables) =>
      unwrap(
        api.PATCH('/v1/workspaces/{slug}/projects/{key}', {
          params: { path: { slug, key: project.key }, header: ifMatch(project) },
          body: patch,
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}
