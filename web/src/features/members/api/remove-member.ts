import {
  matchMutation,
  useMutation,
  useQueryClient,
  type Mutation,
  type QueryClient,
} from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { memberKeys } from './query-keys.ts';

type Member = components['schemas']['Member'];

const removeKey = (slug: string) => [...memberKeys.all, 'remove', slug] as const;

/** What marks a removal in the mutation cache, so that leaving can be told from it. */
export const removeMutationOptions = (slug: string) => ({ mutationKey: removeKey(slug) });

/**
 * DELETE /v1/workspaces/{slug}/members/{user_id}: removes the member, or the caller themselves (leaving).
 * No `If-Match`: removing is the same whatever their role became since. `callerId` is the
 * signed-in person's id: once they have left, they may no longer read the list (it would answer 404).
 */
export function useRemoveMember(slug: string, callerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    ...removeMutationOptions(slug),
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

/** This person's own removal from the workspace (leaving), whatever its state. */
function isLeaving(mutation: Mutation<unknown, Error, unknown>, slug: string, userId: string): boolean {
  const member = mutation.state.variables as Member | undefined;
  return matchMutation({ mutationKey: removeKey(slug) }, mutation) && member?.user_id === userId;
}

/**
 * Whether this person is leaving the workspace, or has just left it: from then on its reads answer 404,
 * so the screens still open should not start new ones.
 */
export function isLeavingWorkspace(queryClient: QueryClient, slug: string, userId: string): boolean {
  return queryClient
    .getMutationCache()
    .getAll()
    .some((mutation) => mutation.state.status !== 'error' && isLeaving(mutation, slug, userId));
}

/** Calls `onFailed` whenever this person's attempt to leave the workspace fails; returns how to stop. */
export function onLeavingFailed(
  queryClient: QueryClient,
  slug: string,
  userId: string,
  onFailed: () => void,
): () => void {
  return queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error' && isLeaving(event.mutation, slug, userId))
      onFailed();
  });
}
