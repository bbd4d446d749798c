/**
 * The one upload of the web app: a file's bytes `PUT` as they are to a signed upload URL the API issued
 * (docs/decisions/0025-uploads-from-the-browser.md). XMLHttpRequest, because it is the only way a browser
 * reports upload progress; the lint rules allow it in this folder only.
 */

export interface UploadProgress {
  loaded: number;
  total: number;
}

interface PutFileOptions {
  /** The declared type: Storage keeps it as the object's type and checks it against the bucket's. */
  contentType: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Why an upload failed, in words for people; `status` 0 when there was no answer at all. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Resolves once Storage has accepted every byte; rejects with an UploadError, or an AbortError. */
export function putFile(url: string, file: Blob, { contentType, onProgress, signal }: PutFileOptions) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const request = new XMLHttpRequest();
    const onAbort = () => request.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    });
    request.addEventListener('load', () => {
      settle();
      if (request.status >= 200 && request.status < 300) {
        onProgress?.({ loaded: file.size, total: file.size });
        resolve();
      } else {
        reject(new UploadError(request.status, storageRefusal(request.status, request.responseText)));
      }
    });
    request.addEventListener('error', () => {
      settle();
      reject(new UploadError(0, 'The upload was interrupted: check the connection and try again.'));
    });
    request.addEventListener('abort', () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });

    request.open('PUT', url);
    request.setRequestHeader('Content-Type', contentType);
    request.send(file);
  });
}

/** Storage's error body is `{ statusCode, error, message }`; its message is fit to show. */
function storageRefusal(status: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return `Storage refused the file: ${parsed.message}`;
    }
  } catch {
    // Not JSON: fall through to the status.
  }
  return `Storage refused the file (${status}).`;
}
