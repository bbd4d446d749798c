/**
 * The uploads of the component tests: a stand-in for the browser's XMLHttpRequest (which lib/uploads
 * uses for its progress events) that records each upload and lets the test move it along. Install with
 * `vi.stubGlobal('XMLHttpRequest', FakeUploadRequest)`.
 */
type Listener = (event: { lengthComputable: boolean; loaded: number; total: number }) => void;

class Listeners {
  private readonly byType = new Map<string, Listener[]>();

  addEventListener(type: string, listener: Listener): void {
    this.byType.set(type, [...(this.byType.get(type) ?? []), listener]);
  }

  emit(type: string, loaded = 0, total = 0): void {
    for (const listener of this.byType.get(type) ?? [])
      listener({ lengthComputable: total > 0, loaded, total });
  }
}

export const sentUploads: FakeUploadRequest[] = [];

export class FakeUploadRequest extends Listeners {
  readonly upload = new Listeners();
  method = '';
  url = '';
  readonly headers = new Map<string, string>();
  body: Blob | null = null;
  status = 0;
  responseText = '';

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers.set(name.toLowerCase(), value);
  }

  send(body: Blob): void {
    this.body = body;
    sentUploads.push(this);
  }

  abort(): void {
    this.emit('abort');
  }

  /** `loaded` of the body's bytes have gone up. */
  progress(loaded: number): void {
    this.upload.emit('progress', loaded, this.body?.size ?? 0);
  }

  /** Storage answered. */
  answer(status: number, body: object = {}): void {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.emit('load');
  }
}

/** The upload sent last; fails the test when there is none. */
export function lastUpload(): FakeUploadRequest {
  const upload = sentUploads.at(-1);
  if (!upload) throw new Error('Nothing was uploaded.');
  return upload;
}
