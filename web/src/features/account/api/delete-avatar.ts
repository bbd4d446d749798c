import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { accountKeys } from './query-keys.ts';

/** DELETE /v1/me/avatar; the account (and everywhere it shows) is read again. */
export function useDeleteAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/v1/me/avatar')),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.me() }),
  });
}
