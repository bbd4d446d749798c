import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { memberKeys } from './query-keys.ts';

type Member = components['schemas']['Member'];

/**
 * DELETE /v1/workspaces/{slug}/members/{user_id}: removes the member, or the caller themselves (leaving).
 * No `If-Match`: removing is the same whatever their role became since. `callerId` is the
 * signed-in person's id: once they have left, they may no longer read the list (it would answer 404).
 */
export function useRemoveMember(slug: string, callerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}/members/{user_id}', {
          params: { path: { slug, user_id: member.user_id } },
        }),
      ),
    onSettled: (_answer, error, member) =>
      error === null && member.user_id === callerId
        ? queryClient.cancelQueries({ queryKey: memberKeys.list({ slug }) })
        : queryClient.invalidateQueries({ queryKey: memberKeys.list({ slug }) }),
  });
}
