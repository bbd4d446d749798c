import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { labelKeys } from './query-keys.ts';

type Label = components['schemas']['Label'];

/**
 * DELETE /v1/workspaces/{slug}/labels/{id} with `If-Match`, so a label renamed meanwhile is not deleted
 * unseen; the label list is read again after.
 */
export function useDeleteLabel(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: Label) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}/labels/{id}', {
          params: { path: { slug, id: label.id }, header: ifMatch(label) },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.list({ slug }) }),
  });
}
