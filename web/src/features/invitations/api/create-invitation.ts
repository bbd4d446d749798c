import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { invitationKeys } from './query-keys.ts';

type CreateInvitation = components['schemas']['CreateInvitation'];

/** POST /v1/workspaces/{slug}/invitations: the answer holds the accept link, shown this once. */
export function useCreateInvitation(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitation) =>
      unwrap(api.POST('/v1/workspaces/{slug}/invitations', { params: { path: { slug } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.list({ slug }) }),
  });
}
