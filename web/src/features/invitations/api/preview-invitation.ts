import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';

/**
 * Below the invitations feature's `all` prefix (`['invitations']`), so invalidating the feature reaches
 * it. The token is the key: it is this browser's own, and never leaves the cache.
 */
export const invitationPreviewKey = (token: string) => ['invitations', 'preview', token] as const;

/**
 * GET /v1/invitations/{token}: the invitation as its page shows it to `viewer` (the signed-in person's
 * address, or undefined when signed out), whose answer differs: signing in reads it again.
 */
export function invitationPreviewQueryOptions(token: string, viewer: string | undefined) {
  return queryOptions({
    queryKey: [...invitationPreviewKey(token), viewer ?? 'signed out'],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/invitations/{token}', { params: { path: { token } }, signal })),
  });
}

export function useInvitationPreview(token: string, viewer: string | undefined) {
  return useQuery(invitationPreviewQueryOptions(token, viewer));
}
