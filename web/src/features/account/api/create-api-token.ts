import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { accountKeys } from './query-keys.ts';

type CreateApiToken = components['schemas']['CreateApiToken'];

/** POST /v1/me/tokens: the answer holds the secret, once; the list is read again. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiToken) => unwrap(api.POST('/v1/me/tokens', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}
