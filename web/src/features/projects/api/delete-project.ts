import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { projectKeys } from './query-keys.ts';

type Project = components['schemas']['Project'];

/** DELETE /v1/workspaces/{slug}/projects/{key} with `If-Match`; the project lists are read again after. */
export function useDeleteProject(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (project: Project) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}/projects/{key}', {
          params: { path: { slug, key: project.key }, header: ifMatch(project) },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}
