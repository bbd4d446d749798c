import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { invitationKeys } from './query-keys.ts';

type Invitation = components['schemas']['Invitation'];

/** DELETE /v1/workspaces/{slug}/invitations/{id}: its link stops working; revoking twice is harmless. */
export function useRevokeInvitation(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: Invitation) =>
      unwrap(
        api.DELETE('/v1/workspaces/{slug}/invitations/{id}', {
          params: { path: { slug, id: invitation.id } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.list({ slug }) }),
  });
}
