import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, test } from 'vitest';
import { readKeys } from '../../local/keys.ts';
import { useStorageStandIn } from '../support/stand-in-storage.ts';

const DEFAULT_UPLOAD_URL_LIFETIME_SECONDS = 7200;

describe('the stand-in Storage service: signed URLs', () => {
  const storage = useStorageStandIn();
  let bucket: string;

  beforeAll(async () => {
    bucket = await storage.newBucket('signed');
    const files = storage.service().storage.from(bucket);
    expect(
      (await files.upload('docs/report.pdf', '%PDF-1.7 report', { contentType: 'application/pdf' })).error,
    ).toBeNull();
  });

  async function signWithProjectSecret(claims: Record<string, unknown>, expiresAt: number, secret?: string) {
    const keys = await readKeys(storage.standIn.process.dataDir);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(expiresAt - 60)
      .setExpirationTime(expiresAt)
      .sign(new TextEncoder().encode(secret ?? keys?.jwtSecret ?? ''));
  }

  test('createSignedUrl gives a URL that downloads without credentials, as an <a href> would', async () => {
    const { data, error } = await storage
      .service()
      .storage.from(bucket)
      .createSignedUrl('docs/report.pdf', 60);
    expect(error).toBeNull();
    const signedUrl = data?.signedUrl ?? '';
    expect(signedUrl).toMatch(
      new RegExp(
        `^${storage.standIn.process.apiUrl}/storage/v1/object/sign/${bucket}/docs/report\\.pdf\\?token=`,
      ),
    );
    const token = new URL(signedUrl).searchParams.get('token') ?? '';
    expect(decodeJwt(token)).toMatchObject({ url: `${bucket}/docs/report.pdf`, scope: 'download' });
    expect(decodeJwt(token).exp).toBe((decodeJwt(token).iat ?? 0) + 60);

    const response = await fetch(signedUrl, { headers: { origin: 'http://localhost:5173' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-type')).toBe('application/pdf');
    // Not an image the app shows inline: a download, whether or not the URL says `download`.
    expect(response.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''report.pdf");
    expect(await response.text()).toBe('%PDF-1.7 report');
  });

  test('with download, the signed URL answers Content-Disposition: attachment with an RFC 5987 file name', async () => {
    const files = storage.service().storage.from(bucket);
    const plain = await files.createSignedUrl('docs/report.pdf', 60, { download: true });
    const response = await fetch(plain.data?.signedUrl ?? '');
    expect(response.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''report.pdf");

    const token = new URL(plain.data?.signedUrl ?? '').searchParams.get('token') ?? '';
    const named = await fetch(
      `${storage.standIn.process.apiUrl}/storage/v1/object/sign/${bucket}/docs/report.pdf?token=${token}` +
        `&download=${encodeURIComponent("Rapport d'été (final).pdf")}`,
    );
    expect(named.headers.get('content-disposition')).toBe(
      "attachment; filename*=UTF-8''Rapport%20d%27%C3%A9t%C3%A9%20%28final%29.pdf",
    );
    expect(await named.text()).toBe('%PDF-1.7 report');
  });

  test('createSignedUrls signs each path the caller can read and says which it cannot', async () => {
    const { data, error } = await storage
      .service()
      .storage.from(bucket)
      .createSignedUrls(['docs/report.pdf', 'docs/missing.pdf'], 60);
    expect(error).toBeNull();
    expect(data).toEqual([
      { error: null, path: 'docs/report.pdf', signedURL: expect.any(String), signedUrl: expect.any(String) },
      {
        error: 'Either the object does not exist or you do not have access to it',
        path: 'docs/missing.pdf',
        signedURL: null,
        signedUrl: null,
      },
    ]);
    expect((await fetch(data?.[0]?.signedUrl ?? '')).status).toBe(200);
  });

  test('an expired, forged or misdirected token is refused with Storage error bodies', async () => {
    const base = `${storage.standIn.process.apiUrl}/storage/v1/object/sign/${bucket}/docs/report.pdf?token=`;
    const now = Math.floor(Date.now() / 1000);
    const claims = { url: `${bucket}/docs/report.pdf`, scope: 'download' };

    const expired = await fetch(base + (await signWithProjectSecret(claims, now - 10)));
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      statusCode: '400',
      code: 'InvalidJWT',
      error: 'invalid_jwt',
      message: '"exp" claim timestamp check failed',
    });

    const forged = await fetch(
      base + (await signWithProjectSecret(claims, now + 60, 'not-the-project-secret')),
    );
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({
      statusCode: '400',
      code: 'InvalidJWT',
      message: 'signature verification failed',
    });

    const elsewhere = await signWithProjectSecret({ ...claims, url: `${bucket}/docs/other.pdf` }, now + 60);
    const misdirected = await fetch(base + elsewhere);
    expect(await misdirected.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });

    const uploadToken = await signWithProjectSecret({ ...claims, scope: 'upload' }, now + 60);
    expect(await (await fetch(base + uploadToken)).json()).toMatchObject({ code: 'InvalidSignature' });
    expect(await (await fetch(base + 'garbage')).json()).toMatchObject({
      statusCode: '400',
      code: 'InvalidJWT',
    });
  });

  test('createSignedUploadUrl + uploadToSignedUrl: the upload runs as the signing user, for two hours by default', async () => {
    const user = await storage.newUser();
    await storage.sql(
      `create policy "signed test: users insert ${bucket}" on storage.objects for insert to authenticated
       with check (bucket_id = '${bucket}' and (storage.foldername(name))[1] = auth.uid()::text)`,
    );
    const files = user.client.storage.from(bucket);
    const path = `${user.id}/photo.png`;
    const signed = await files.createSignedUploadUrl(path);
    expect(signed.error).toBeNull();
    expect(signed.data?.signedUrl).toBe(
      `${storage.standIn.process.apiUrl}/storage/v1/object/upload/sign/${bucket}/${path}?token=${signed.data?.token}`,
    );
    const claims = decodeJwt(signed.data?.token ?? '');
    expect(claims).toMatchObject({
      url: `${bucket}/${path}`,
      scope: 'upload',
      owner: user.id,
      upsert: false,
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(DEFAULT_UPLOAD_URL_LIFETIME_SECONDS);

    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    const uploaded = await storage
      .anon()
      .storage.from(bucket)
      .uploadToSignedUrl(path, signed.data?.token ?? '', png);
    expect(uploaded).toEqual({ data: { path, fullPath: `${bucket}/${path}` }, error: null });
    const [row] = await storage.sql(
      `select owner_id, metadata->>'mimetype' as mimetype from storage.objects where bucket_id = $1 and name = $2`,
      [bucket, path],
    );
    expect(row).toEqual({ owner_id: user.id, mimetype: 'image/png' });

    // The token's upsert claim decides, whatever x-upsert the upload sends.
    const again = await storage
      .anon()
      .storage.from(bucket)
      .uploadToSignedUrl(path, signed.data?.token ?? '', png, { upsert: true });
    expect(again.error).toMatchObject({ statusCode: '409' });
  });

  test('a browser PUTs raw bytes straight to the signed upload URL, after a CORS preflight, with no credentials', async () => {
    const files = storage.service().storage.from(bucket);
    const signed = await files.createSignedUploadUrl('browser/raw.png', { upsert: true });
    expect(signed.error).toBeNull();
    const url = signed.data?.signedUrl ?? '';

    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,x-upsert',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,x-upsert');

    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const put = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', origin: 'http://localhost:5173' },
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    expect(await put.json()).toEqual({ Key: `${bucket}/browser/raw.png` });
    const info = await files.info('browser/raw.png');
    expect(info.data).toMatchObject({ size: 8, contentType: 'image/png' });
    // Upsert was signed in: the same URL may replace the object.
    const replaced = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: bytes.slice(0, 4),
    });
    expect(replaced.status).toBe(200);
    expect((await files.info('browser/raw.png')).data?.size).toBe(4);

    const head = await files.download('browser/raw.png');
    expect(new Uint8Array((await head.data?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes.slice(0, 4));
  });

  test('createSignedUploadUrl checks INSERT permission when it signs', async () => {
    const user = await storage.newUser();
    const denied = await user.client.storage.from(bucket).createSignedUploadUrl('someone-else/x.png');
    expect(denied.error).toMatchObject({
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    const anon = await storage.anon().storage.from(bucket).createSignedUploadUrl('anon/x.png');
    expect(anon.error).toMatchObject({ statusCode: '403' });
    const missing = await storage.service().storage.from('no-such-bucket').createSignedUploadUrl('x.png');
    expect(missing.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });
  test('no token reaches the log: neither signed URL tokens nor the access tokens that asked for them', async () => {
    const user = await storage.newUser();
    const files = storage.service().storage.from(bucket);
    const download = await files.createSignedUrl('docs/report.pdf', 60, { download: true });
    const upload = await files.createSignedUploadUrl('logs/never.txt');
    await fetch(download.data?.signedUrl ?? '');
    await fetch(upload.data?.signedUrl ?? '', {
      method: 'PUT',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    await user.client.storage.from(bucket).download('docs/report.pdf');
    await fetch(
      `${storage.standIn.process.apiUrl}/storage/v1/object/sign/${bucket}/x?token=forged.token.here`,
    );
    const output = storage.standIn.process.output();
    const tokens = [
      new URL(download.data?.signedUrl ?? '').searchParams.get('token') ?? '',
      upload.data?.token ?? '',
      user.accessToken,
      'forged.token.here',
    ];
    for (const token of tokens) expect(output).not.toContain(token);
  });
});
