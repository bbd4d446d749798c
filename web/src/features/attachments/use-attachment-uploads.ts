import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../lib/api/api-error.ts';
import { putFile, UploadError } from '../../lib/uploads/put-file.ts';
import { completeAttachment } from './api/complete-attachment.ts';
import { createAttachment } from './api/create-attachment.ts';
import { deleteAttachment } from './api/delete-attachment.ts';
import { attachmentKeys } from './api/query-keys.ts';
import { checkAttachment } from './attachment-files.ts';

/** One file on its way: refused before it left, going up (bytes so far), being checked, or failed. */
export type UploadPhase =
  | { phase: 'starting' }
  | { phase: 'uploading'; loaded: number }
  | { phase: 'completing' }
  | { phase: 'failed'; message: string };

export type Upload = UploadPhase & {
  key: string;
  fileName: string;
  size: number;
  /** The pending attachment once declared: the task's list leaves it to this upload's row. */
  attachmentId: string | null;
};

let nextKey = 0;

/**
 * Attaches files to a task: each is checked against the API's rules, declared (`createAttachment`), its
 * bytes PUT to the signed upload URL with progress, then completed. A finished upload leaves the list of
 * uploads and shows up among the task's attachments; a failed one stays, with why, until dismissed.
 */
export function useAttachmentUploads(taskId: string, onAttached?: () => void) {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<readonly Upload[]>([]);
  const controllers = useRef(new Map<string, AbortController>());

  // Leaving the task cancels what is still going up.
  useEffect(() => {
    const running = controllers.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  const update = useCallback((key: string, change: (UploadPhase & Partial<Upload>) | null) => {
    setUploads((current) =>
      change === null
        ? current.filter((upload) => upload.key !== key)
        : current.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)),
    );
  }, []);

  const uploadOne = useCallback(
    /** `turn` settles when the file picked before this one is declared, so the list keeps the picked order. */
    async (file: File, turn: Promise<unknown>, declared: () => void) => {
      const key = `upload-${++nextKey}`;
      const check = checkAttachment(file);
      const base = { key, fileName: file.name, size: file.size, attachmentId: null };
      if (!check.ok) {
        setUploads((current) => [...current, { ...base, phase: 'failed', message: check.reason }]);
        await turn;
        declared();
        return;
      }
      setUploads((current) => [...current, { ...base, phase: 'starting' }]);
      const controller = new AbortController();
      controllers.current.set(key, controller);
      let attachmentId: string | null = null;
      try {
        await turn;
        const { attachment, upload } = await createAttachment(taskId, check.body, controller.signal).finally(
          declared,
        );
        attachmentId = attachment.id;
        update(key, { phase: 'uploading', loaded: 0, attachmentId: attachment.id });
        await putFile(upload.url, file, {
          contentType: check.body.content_type,
          signal: controller.signal,
          onProgress: ({ loaded }) => update(key, { phase: 'uploading', loaded }),
        });
        update(key, { phase: 'completing' });
        await completeAttachment(attachment.id, controller.signal);
        attachmentId = null;
        await queryClient.invalidateQueries({ queryKey: attachmentKeys.list({ taskId }) });
        update(key, null);
        onAttached?.();
      } catch (error) {
        const cancelled = controller.signal.aborted;
        if (cancelled) update(key, null);
        else update(key, { phase: 'failed', message: failureMessage(error) });
        // A declared attachment whose bytes never arrived is discarded rather than left pending.
        if (attachmentId !== null) await discard(attachmentId);
        void queryClient.invalidateQueries({ queryKey: attachmentKeys.list({ taskId }) });
      } finally {
        controllers.current.delete(key);
      }
    },
    [taskId, queryClient, update, onAttached],
  );

  const attach = useCallback(
    (files: Iterable<File>) => {
      // Declared one after the other (one short call each), while the bytes go up side by side.
      let turn: Promise<unknown> = Promise.resolve();
      for (const file of files) {
        let declared = () => {};
        const next = new Promise<void>((resolve) => (declared = resolve));
        void uploadOne(file, turn, declared);
        turn = next;
      }
    },
    [uploadOne],
  );

  const cancel = useCallback((key: string) => controllers.current.get(key)?.abort(), []);
  const dismiss = useCallback((key: string) => update(key, null), [update]);

  return { uploads, attach, cancel, dismiss };
}

function failureMessage(error: unknown): string {
  if (error instanceof UploadError) return error.message;
  return describeError(error);
}

async function discard(attachmentId: string): Promise<void> {
  try {
    await deleteAttachment(attachmentId);
  } catch {
    // Already gone (a refused completion removes it), or the hourly sweep will.
  }
}
