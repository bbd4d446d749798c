import { useMutation } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';

type Workspace = components['schemas']['Workspace'];

/**
 * DELETE /v1/workspaces/{slug} with `If-Match`, for good. The caller moves away first and then drops the
 * workspace's cached queries (a screen still showing it would read it again and find it gone).
 */
export function useDeleteWorkspace() {
  return useMutation({
    mutationFn: (workspace: Workspace) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}', {
          params: { path: { slug: workspace.slug }, header: ifMatch(workspace) },
        }),
      ),
  });
}
