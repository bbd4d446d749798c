import type { components } from '@api-spec/schema.d.ts';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { describeError } from '../../../lib/api/api-error.ts';
import { UploadError } from '../../../lib/uploads/put-file.ts';
import { useDeleteAvatar } from '../api/delete-avatar.ts';
import { useUploadAvatar } from '../api/upload-avatar.ts';
import { AVATAR_ACCEPT, checkAvatar } from '../avatar-file.ts';
import styles from './avatar-picker.module.css';

type Me = components['schemas']['Me'];

interface Picked {
  file: File;
  preview: string;
}

/**
 * The profile's picture: choose one (checked before it is sent), see it as it will be shown, upload it
 * with progress; or remove the one there is. Shown square, cropped into the circle by CSS.
 */
export function AvatarPicker({ me }: { me: Me }) {
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [percent, setPercent] = useState(0);
  const upload = useUploadAvatar();
  const remove = useDeleteAvatar();
  const name = me.display_name || me.email;

  // The preview's object URL is released when another is picked or the picker goes.
  useEffect(() => () => void (picked && URL.revokeObjectURL(picked.preview)), [picked]);

  const choose = (file: File | undefined) => {
    upload.reset();
    remove.reset();
    if (!file) return;
    const check = checkAvatar(file);
    if (!check.ok) {
      setPicked(null);
      setRefusal(check.reason);
      return;
    }
    setRefusal(null);
    setPercent(0);
    setPicked({ file, preview: URL.createObjectURL(file) });
  };

  const save = () => {
    if (!picked) return;
    const check = checkAvatar(picked.file);
    if (!check.ok) return;
    upload.mutate(
      {
        file: picked.file,
        body: check.body,
        onProgress: ({ loaded, total }) => setPercent(Math.round((loaded / total) * 100)),
      },
      { onSuccess: () => setPicked(null) },
    );
  };

  const failure = refusal ?? failureOf(upload.error) ?? (remove.error ? describeError(remove.error) : null);

  return (
    <div className={styles.picker}>
      <Avatar
        name={name}
        id={me.id}
        src={picked?.preview ?? me.avatar_url}
        size="large"
        decorative
        className={styles.avatar}
      />
      <div className={styles.side}>
        <span className={styles.label}>Picture</span>
        {picked ? (
          <>
            <span className={styles.hint}>This is how your teammates will see it.</span>
            {upload.isPending && (
              <ProgressBar label="Uploading your picture" percent={percent} className={styles.progress} />
            )}
            <span className={styles.buttons}>
              <Button variant="primary" onClick={save} disabled={upload.isPending}>
                {upload.isPending ? 'Uploading…' : 'Save picture'}
              </Button>
              <Button onClick={() => setPicked(null)} disabled={upload.isPending}>
                Cancel
              </Button>
            </span>
          </>
        ) : (
          <>
            <span className={styles.hint}>PNG, JPEG or WebP, up to 2 MB.</span>
            <span className={styles.buttons}>
              <Button onClick={() => input.current?.click()}>
                {me.avatar_url ? 'Change picture' : 'Upload a picture'}
              </Button>
              {me.avatar_url && (
                <ConfirmDialog
                  trigger={
                    <Button variant="link" className={styles.remove} disabled={remove.isPending}>
                      Remove
                    </Button>
                  }
                  title="Remove your picture?"
                  description="Your initials show instead, everywhere."
                  confirm="Remove picture"
                  onConfirm={() => remove.mutate()}
                />
              )}
            </span>
          </>
        )}
        <input
          ref={input}
          className={styles.fileInput}
          type="file"
          accept={AVATAR_ACCEPT}
          tabIndex={-1}
          aria-label="Picture file"
          data-testid="avatar-input"
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        {failure && <Alert>{failure}</Alert>}
        {upload.isSuccess && <Notice>Your picture was saved.</Notice>}
        {remove.isSuccess && <Notice>Your picture was removed.</Notice>}
      </div>
    </div>
  );
}

function failureOf(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof UploadError) return error.message;
  return describeError(error);
}
