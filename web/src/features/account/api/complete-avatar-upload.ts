import { api, unwrap } from '../../../lib/api/api-client.ts';

/** POST /v1/me/avatar/complete: the API checks the picture and answers the account with its avatar_url. */
export function completeAvatarUpload(signal?: AbortSignal) {
  return unwrap(api.POST('/v1/me/avatar/complete', { signal }));
}
