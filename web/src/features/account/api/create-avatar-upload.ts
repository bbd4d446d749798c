import type { components } from '@api-spec/schema.d.ts';
import { api, unwrap } from '../../../lib/api/api-client.ts';

type CreateAvatarUpload = components['schemas']['CreateAvatarUpload'];

/** POST /v1/me/avatar: the signed URL to upload a new picture to. */
export function createAvatarUpload(body: CreateAvatarUpload, signal?: AbortSignal) {
  return unwrap(api.POST('/v1/me/avatar', { body, signal }));
}
