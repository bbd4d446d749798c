import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT, importJWK } from 'jose';
import { beforeAll, describe, expect, test } from 'vitest';
import { readKeys } from '../../local/keys.ts';
import { useStorageStandIn } from '../support/stand-in-storage.ts';

const GLOBAL_LIMIT = 64 * 1024;
const TOO_LARGE = {
  statusCode: '413',
  code: 'EntityTooLarge',
  error: 'Payload too large',
  message: 'The object exceeded the maximum allowed size',
};

describe('the stand-in Storage service: limits and errors', () => {
  const storage = useStorageStandIn({ TASKLANE_STORAGE_FILE_SIZE_LIMIT: '64KiB' });
  let small: string;
  let images: string;

  beforeAll(async () => {
    small = await storage.newBucket('small', { public: false, fileSizeLimit: 1000 });
    images = await storage.newBucket('images', {
      public: false,
      allowedMimeTypes: ['image/*', 'text/plain'],
    });
  });

  const serviceHeaders = () => ({ apikey: storage.standIn.keys.secretKey });
  const rowsIn = async (bucket: string) =>
    (await storage.sql('select name from storage.objects where bucket_id = $1', [bucket])).map(
      (row) => row.name,
    );
  const filesIn = async (bucket: string) =>
    readdir(join(storage.standIn.process.dataDir, 'storage', 'objects', bucket)).catch(() => []);
  const pendingUploads = () =>
    readdir(join(storage.standIn.process.dataDir, 'storage', 'uploads')).catch(() => []);

  test('a raw upload whose Content-Length exceeds the bucket limit is refused (413 in a 400), leaving nothing', async () => {
    const files = storage.service().storage.from(small);
    expect((await files.upload('fits.bin', new Uint8Array(1000))).error).toBeNull();
    const { error } = await files.upload('too-big.bin', new Uint8Array(1001));
    expect(error).toMatchObject({ status: 400, statusCode: '413', message: TOO_LARGE.message });

    const raw = await storage.fetchStorage(`/object/${small}/raw.bin`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'application/octet-stream' },
      body: new Uint8Array(5000),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual(TOO_LARGE);
    expect(await rowsIn(small)).toEqual(['fits.bin']);
    expect(await filesIn(small)).toHaveLength(1);
    expect(await pendingUploads()).toEqual([]);
  });

  test('a streamed body (no Content-Length) is cut off once it passes the limit', async () => {
    const chunk = new Uint8Array(600);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await storage.fetchStorage(`/object/${small}/streamed.bin`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await response.json()).toEqual(TOO_LARGE);
    expect(await rowsIn(small)).not.toContain('streamed.bin');
    expect(await pendingUploads()).toEqual([]);
  });

  test('a multipart upload over the limit is refused, and the global limit caps every bucket', async () => {
    const blob = new Blob([new Uint8Array(1001)], { type: 'application/octet-stream' });
    const multipart = await storage.service().storage.from(small).upload('form.bin', blob);
    expect(multipart.error).toMatchObject({ statusCode: '413' });

    const roomy = await storage.newBucket('roomy', { public: false, fileSizeLimit: '10MB' });
    const files = storage.service().storage.from(roomy);
    expect((await files.upload('at-limit.bin', new Uint8Array(GLOBAL_LIMIT))).error).toBeNull();
    expect((await files.upload('past-limit.bin', new Uint8Array(GLOBAL_LIMIT + 1))).error).toMatchObject({
      statusCode: '413',
    });
    const big = new Blob([new Uint8Array(GLOBAL_LIMIT + 1)]);
    expect((await files.upload('past-limit-form.bin', big)).error).toMatchObject({ statusCode: '413' });
    expect(await rowsIn(roomy)).toEqual(['at-limit.bin']);
  });

  test('allowed_mime_types matches type and subtype, parameters included (the storage-js default fails text/plain)', async () => {
    const files = storage.service().storage.from(images);
    const png = new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' });
    expect((await files.upload('a.png', png)).error).toBeNull();
    expect((await files.upload('b.webp', new Uint8Array(2), { contentType: 'image/webp' })).error).toBeNull();
    expect((await files.upload('c.txt', 'plain', { contentType: 'text/plain' })).error).toBeNull();

    const quirk = await files.upload('d.txt', 'default content type');
    expect(quirk.error).toMatchObject({
      status: 400,
      statusCode: '415',
      message: 'mime type text/plain;charset=UTF-8 is not supported',
    });
    const html = await storage.fetchStorage(`/object/${images}/e.html`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'text/html' },
      body: '<p>hi</p>',
    });
    expect(await html.json()).toEqual({
      statusCode: '415',
      code: 'InvalidMimeType',
      error: 'invalid_mime_type',
      message: 'mime type text/html is not supported',
    });
    const form = new Blob(['<p>hi</p>'], { type: 'text/html' });
    expect((await files.upload('f.html', form)).error).toMatchObject({ statusCode: '415' });
    expect(((await rowsIn(images)) as string[]).sort()).toEqual(['a.png', 'b.webp', 'c.txt']);
  });

  test('with an allow-list, a type with anything around or after its type/subtype is refused, by every upload', async () => {
    const gifs = await storage.newBucket('gifs', { public: false, allowedMimeTypes: ['image/gif'] });
    const GIF = 'GIF89a<html><head><title>not a gif</title></head></html>';
    const refused = {
      statusCode: '415',
      code: 'InvalidMimeType',
      error: 'invalid_mime_type',
      message: 'mime type image/gif/,text/html is not supported',
    };
    const raw = await storage.fetchStorage(`/object/${gifs}/raw.gif`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'image/gif/,text/html' },
      body: GIF,
    });
    expect({ status: raw.status, body: await raw.json() }).toEqual({ status: 400, body: refused });

    const files = storage.service().storage.from(gifs);
    const { data } = await files.createSignedUploadUrl('signed.gif');
    const signed = await fetch(data?.signedUrl ?? '', {
      method: 'PUT',
      headers: { 'content-type': 'image/gif/,text/html' },
      body: GIF,
    });
    expect({ status: signed.status, body: await signed.json() }).toEqual({ status: 400, body: refused });

    // A form names the type as its file part's own, or in a contentType field (storage-js sends both ways).
    const forms: [string, FormData][] = ['image/gif;charset=utf-8', 'image/gif, text/html'].flatMap(
      (type) => {
        const asPart = new FormData();
        asPart.append('', new Blob([GIF], { type }), 'part.gif');
        const asField = new FormData();
        asField.append('contentType', type);
        asField.append('', new Blob([GIF], { type: 'image/gif' }), 'field.gif');
        return [
          [type, asPart],
          [type, asField],
        ];
      },
    );
    for (const [type, form] of forms) {
      const response = await storage.fetchStorage(`/object/${gifs}/form.gif`, {
        method: 'POST',
        headers: serviceHeaders(),
        body: form,
      });
      expect(await response.json(), type).toMatchObject({ statusCode: '415', code: 'InvalidMimeType' });
    }
    expect(await rowsIn(gifs)).toEqual([]);
    expect((await files.upload('plain.gif', new Blob([GIF], { type: 'image/gif' }))).error).toBeNull();
  });

  test('a missing object or bucket answers NoSuchKey / NoSuchBucket, and exists() says false', async () => {
    const files = storage.service().storage.from(small);
    const download = await files.download('nope.bin');
    expect(download.error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' });
    expect((await files.info('nope.bin')).error).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
    expect(await files.exists('nope.bin')).toMatchObject({ data: false });
    expect((await files.createSignedUrl('nope.bin', 60)).error).toMatchObject({ statusCode: '404' });

    const raw = await storage.fetchStorage(`/object/${small}/nope.bin`, { headers: serviceHeaders() });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchKey',
      error: 'not_found',
      message: 'Object not found',
    });
    const noBucket = await storage.service().storage.from('no-such-bucket').upload('x.txt', 'x');
    expect(noBucket.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });

  test('a bad or expired JWT is AccessDenied; no API key at all is the gateway 401', async () => {
    const path = `/object/${small}/fits.bin`;
    const garbage = await storage.fetchStorage(path, { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(await garbage.json()).toMatchObject({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
    });

    const keys = await readKeys(storage.standIn.process.dataDir);
    if (!keys) throw new Error('no keys');
    const now = Math.floor(Date.now() / 1000);
    const expiredToken = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid, typ: 'JWT' })
      .setSubject('00000000-0000-4000-8000-000000000000')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(await importJWK(keys.signingKey, 'ES256'));
    const expired = await storage.fetchStorage(path, {
      headers: { authorization: `Bearer ${expiredToken}` },
    });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: '"exp" claim timestamp check failed',
    });

    const keyless = await fetch(`${storage.standIn.process.apiUrl}/storage/v1${path}`);
    expect(keyless.status).toBe(401);
    expect(await keyless.json()).toMatchObject({ message: 'No API key found in request' });
  });
});
