import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';
import { accountKeys } from './query-keys.ts';

type UpdateMe = components['schemas']['UpdateMe'];

/** PATCH /v1/me; the answer is the whole account, so it replaces the cached one. */
export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMe) => unwrap(api.PATCH('/v1/me', { body })),
    onSuccess: (me) => queryClient.setQueryData(accountKeys.me(), me),
  });
}
