import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { memberKeys } from './query-keys.ts';

type Member = components['schemas']['Member'];
type WorkspaceRole = Member['role'];

export interface UpdateMemberVariables {
  /** The member as the caller saw them: their version goes in `If-Match`. */
  member: Member;
  role: WorkspaceRole;
}

/** PATCH /v1/workspaces/{slug}/members/{user_id}: a new role; the member list is read again either way. */
export function useUpdateMember(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ member, role }: UpdateMemberVariables) =>
      unwrap(
        api.PATCH('/v1/workspaces/{slug}/members/{user_id}', {
          params: { path: { slug, user_id: member.user_id }, header: ifMatch(member) },
          body: { role },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memberKeys.list({ slug }) }),
  });
}
