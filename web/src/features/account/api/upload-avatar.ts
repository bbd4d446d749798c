import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putFile, type UploadProgress } from '../../../lib/uploads/put-file.ts';
import type { components } from '@api-spec/schema.d.ts';
import { completeAvatarUpload } from './complete-avatar-upload.ts';
import { createAvatarUpload } from './create-avatar-upload.ts';
import { accountKeys } from './query-keys.ts';

type CreateAvatarUpload = components['schemas']['CreateAvatarUpload'];

interface AvatarUploadInput {
  file: File;
  body: CreateAvatarUpload;
  onProgress: (progress: UploadProgress) => void;
}

/** A new picture: declared, PUT to the signed upload URL with progress, completed; the account is the answer. */
export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, body, onProgress }: AvatarUploadInput) => {
      const { upload } = await createAvatarUpload(body);
      await putFile(upload.url, file, { contentType: body.content_type, onProgress });
      return completeAvatarUpload();
    },
    onSuccess: (me) => queryClient.setQueryData(accountKeys.me(), me),
  });
}
