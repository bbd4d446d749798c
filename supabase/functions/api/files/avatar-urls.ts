/**
 * Profiles answer their avatar as a short-lived signed URL (the bucket is private), made in one call to
 * Storage for all the avatars of an answer. An avatar is decoration: when Storage cannot sign, the answer
 * goes out with `avatar_url: null` rather than failing, and the failure is logged.
 */
import { SIGNED_AVATAR_URL_LIFETIME_SECONDS } from '../../_shared/limits.ts';
import type { FileStore } from './file-store.ts';

export const AVATARS_BUCKET = 'avatars';

/** Signed URLs by avatar path; paths Storage could not sign are missing. */
export async function signedAvatarUrls(
  files: FileStore,
  paths: readonly (string | null)[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(paths.filter((path): path is string => path !== null))];
  if (wanted.length === 0 || !files.storage) return new Map();
  try {
    return await files.storage.createSignedUrls(AVATARS_BUCKET, wanted, SIGNED_AVATAR_URL_LIFETIME_SECONDS);
  } catch (error) {
    files.logger.warn('could not sign avatar URLs', {
      error: error instanceof Error ? error.message : String(error),
    });
    return new Map();
  }
}

export async function signedAvatarUrl(files: FileStore, path: string | null): Promise<string | null> {
  if (path === null) return null;
  return (await signedAvatarUrls(files, [path])).get(path) ?? null;
}

/**
 * Members as the API answers them, from members as queried, whose `avatar_url` holds the avatar's path
 * (members.queries.ts): each path becomes its signed URL, or null.
 */
export async function withMemberAvatars<T extends { avatar_url: string | null }>(
  files: FileStore,
  members: readonly T[],
): Promise<T[]> {
  const urls = await signedAvatarUrls(
    files,
    members.map((member) => member.avatar_url),
  );
  return members.map((member) => ({
    ...member,
    avatar_url: member.avatar_url === null ? null : (urls.get(member.avatar_url) ?? null),
  }));
}
