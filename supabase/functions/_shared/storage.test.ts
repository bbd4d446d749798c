import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { createStorageClient } from './storage.ts';

const URL_BASE = 'https://project.supabase.test';

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records what it was asked and answers `answer()`. */
function storageStub(answer: (url: string) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetchStub = (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    sent.push({ url, init });
    return Promise.resolve(answer(url));
  };
  return { sent, fetch: fetchStub as typeof fetch };
}

const client = (stub: { fetch: typeof fetch }, timeoutMs?: number) =>
  createStorageClient({ url: `${URL_BASE}/`, serviceKey: 'sb_secret_x', fetch: stub.fetch, timeoutMs });

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('the Storage client', () => {
  it('asks for a signed upload URL as the service and answers it whole', async () => {
    const stub = storageStub(() =>
      Response.json({ url: '/object/upload/sign/attachments/w/t/a?token=jwt', token: 'jwt' }),
    );
    const signed = await client(stub).createSignedUploadUrl('attachments', 'w/t/a');
    expect(signed).toEqual({
      url: `${URL_BASE}/storage/v1/object/upload/sign/attachments/w/t/a?token=jwt`,
      token: 'jwt',
    });
    expect(stub.sent[0]?.url).toBe(`${URL_BASE}/storage/v1/object/upload/sign/attachments/w/t/a`);
    expect(stub.sent[0]?.init.headers).toMatchObject({
      apikey: 'sb_secret_x',
      Authorization: 'Bearer sb_secret_x',
    });
  });

  it('adds the download name to a signed URL, encoded', async () => {
    const stub = storageStub(() => Response.json({ signedURL: '/object/sign/attachments/w/t/a?token=jwt' }));
    const url = await client(stub).createSignedUrl('attachments', 'w/t/a', 300, 'Q3 report & notes.pdf');
    expect(url).toBe(
      `${URL_BASE}/storage/v1/object/sign/attachments/w/t/a?token=jwt&download=Q3%20report%20%26%20notes.pdf`,
    );
    expect(JSON.parse(String(stub.sent[0]?.init.body))).toEqual({ expiresIn: 300 });
  });

  it("answers Storage's failures as 503 unavailable, without a word of what Storage said", async () => {
    const stub = storageStub(() => new Response('{"message":"secret internals"}', { status: 500 }));
    const error = await failureOf(client(stub).createSignedUrl('attachments', 'w/t/a', 300));
    expect(error.code).toBe('unavailable');
    expect(error.detail).not.toContain('secret');
    expect(String((error.cause as Error).message)).toContain('secret internals');
  });

  it('gives up on a Storage that does not answer within the timeout', async () => {
    const stub = storageStub(
      () =>
        new Promise<Response>(() => {
          /* never answers */
        }),
    );
    const hanging = {
      fetch: ((input: string, init: RequestInit) =>
        new Promise<Response>((_, reject) => {
          void stub.fetch(input, init);
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        })) as typeof fetch,
    };
    const error = await failureOf(client(hanging, 20).remove('attachments', ['w/t/a']));
    expect(error.code).toBe('unavailable');
  });

  it("reads an object's first bytes, even from a server that ignores Range; a missing object is undefined", async () => {
    const whole = new Uint8Array(100).map((_, index) => index);
    const stub = storageStub((url) =>
      url.endsWith('/missing')
        ? new Response(
            '{"statusCode":"404","code":"NoSuchKey","error":"not_found","message":"Object not found"}',
            {
              status: 400,
            },
          )
        : new Response(whole),
    );
    expect(await client(stub).readStart('attachments', 'w/t/a', 8)).toEqual(whole.subarray(0, 8));
    expect(stub.sent[0]?.init.headers).toMatchObject({ Range: 'bytes=0-7' });
    expect(await client(stub).readStart('attachments', 'w/t/missing', 8)).toBeUndefined();
  });
});
