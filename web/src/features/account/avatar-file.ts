import { AVATAR_MAX_BYTES, isAvatarContentType } from '@api/avatars/avatars.schemas.ts';
import type { components } from '@api-spec/schema.d.ts';
import { fileType } from '../../lib/files/file-type.ts';
import { formatBytes } from '../../lib/files/format-bytes.ts';

type CreateAvatarUpload = components['schemas']['CreateAvatarUpload'];

export const AVATAR_ACCEPT = 'image/png,image/jpeg,image/webp';

export type AvatarCheck = { ok: true; body: CreateAvatarUpload } | { ok: false; reason: string };

/** The API's rules for a picture (PNG, JPEG or WebP, at most 2 MB), before anything is uploaded. */
export function checkAvatar(file: File): AvatarCheck {
  const type = fileType(file);
  if (!isAvatarContentType(type)) {
    return { ok: false, reason: `“${file.name}” is not a PNG, JPEG or WebP picture.` };
  }
  if (file.size > AVATAR_MAX_BYTES) {
    return {
      ok: false,
      reason: `“${file.name}” is ${formatBytes(file.size)}: a picture can be at most ${formatBytes(AVATAR_MAX_BYTES)}.`,
    };
  }
  if (file.size === 0) return { ok: false, reason: `“${file.name}” is empty.` };
  return { ok: true, body: { content_type: type, size_bytes: file.size } };
}
