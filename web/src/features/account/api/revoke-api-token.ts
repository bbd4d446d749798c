import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { ifMatch } from '../../../lib/api/if-match.ts';
import { accountKeys } from './query-keys.ts';

type ApiToken = components['schemas']['ApiToken'];

/** DELETE /v1/me/tokens/{id}, at the version shown; the list is read again. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: ApiToken) =>
      unwrap(
        api.DELETE('/v1/me/tokens/{id}', {
          params: { path: { id: token.id }, header: ifMatch(token) },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}
