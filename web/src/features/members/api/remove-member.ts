import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { memberKeys } from './query-keys.ts';

type Member = components['schemas']['Member'];

/**
 * DELETE /v1/workspaces/{slug}/members/{user_id}: removes the member, or the caller themselves (leaving).
 * No `If-Match`: removing is the same whatever their role became since.
 */
export function useRemoveMember(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}/members/{user_id}', {
          params: { path: { slug, user_id: member.user_id } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memberKeys.list({ slug }) }),
  });
}
