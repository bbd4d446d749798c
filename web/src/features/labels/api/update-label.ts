import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { labelKeys } from './query-keys.ts';

type Label = components['schemas']['Label'];
type UpdateLabel = components['schemas']['UpdateLabel'];

export interface UpdateLabelVariables {
  /** The label as it was shown: its version goes in `If-Match`. */
  label: Label;
  patch: UpdateLabel;
}

/** PATCH /v1/workspaces/{slug}/labels/{id} with `If-Match`; the label list is read again after. */
export function useUpdateLabel(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ label, patch }: UpdateLabelVariables) =>
      unwrap(
        api.PATCH('/v1/workspaces/{slug}/labels/{id}', {
          params: { path: { slug, id: label.id }, header: ifMatch(label) },
          body: patch,
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.list({ slug }) }),
  });
}
