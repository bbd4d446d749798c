import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { invitationPreviewKey } from './preview-invitation.ts';

/** POST /v1/invitations/{token}/accept: joins the workspace; the preview is read again (now accepted). */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/v1/invitations/{token}/accept', { params: { path: { token } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationPreviewKey(token) }),
  });
}
