import { useMutation } from '@tanstack/react-query';
import { publicApi, unwrap } from '../../../lib/api/api-client.ts';

/**
 * POST /v1/notification-unsubscribe/{token}, without credentials: the signed token is the authority. Only
 * ever on a click, never on load (mail scanners open links).
 */
export function useUnsubscribeFromMail(token: string) {
  return useMutation({
    mutationFn: () =>
      unwrap(publicApi.POST('/v1/notification-unsubscribe/{token}', { params: { path: { token } } })),
  });
}
