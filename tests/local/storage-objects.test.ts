import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { useStorageStandIn } from '../support/stand-in-storage.ts';

describe('the stand-in Storage service: objects, driven by supabase-js', () => {
  const storage = useStorageStandIn();
  let bucket: string;

  beforeAll(async () => {
    bucket = await storage.newBucket('objects');
  });

  const bytesOnDisk = (bucketId: string, id: string) =>
    join(storage.standIn.process.dataDir, 'storage', 'objects', bucketId, id);

  test('upload of a string stores its bytes on disk and a row with Storage metadata; download returns them', async () => {
    const files = storage.service().storage.from(bucket);
    const { data, error } = await files.upload('notes/hello.txt', 'hello, storage');
    expect(error).toBeNull();
    expect(data).toEqual({
      path: 'notes/hello.txt',
      id: expect.any(String),
      fullPath: `${bucket}/notes/hello.txt`,
    });

    const [row] = await storage.sql('select * from storage.objects where id = $1', [data?.id]);
    expect(row).toMatchObject({
      bucket_id: bucket,
      name: 'notes/hello.txt',
      path_tokens: ['notes', 'hello.txt'],
    });
    expect(row?.metadata).toEqual({
      eTag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
      size: 14,
      mimetype: 'text/plain;charset=UTF-8',
      cacheControl: 'max-age=3600',
      lastModified: expect.any(String),
      contentLength: 14,
      httpStatusCode: 200,
    });
    expect(await readFile(bytesOnDisk(bucket, data?.id ?? ''), 'utf8')).toBe('hello, storage');

    const download = await files.download('notes/hello.txt');
    expect(download.error).toBeNull();
    expect(await download.data?.text()).toBe('hello, storage');
  });

  test('a Blob goes as multipart: its type, cacheControl and metadata are kept and info reports them', async () => {
    const user = await storage.newUser();
    await storage.sql(
      `create policy "objects test: users write ${bucket}" on storage.objects for all to authenticated
       using (bucket_id = '${bucket}') with check (bucket_id = '${bucket}')`,
    );
    const files = user.client.storage.from(bucket);
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], { type: 'image/png' });
    const { data, error } = await files.upload('pics/dot.png', png, {
      cacheControl: '60',
      metadata: { alt: 'a dot' },
    });
    expect(error).toBeNull();

    const info = await files.info('pics/dot.png');
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      id: data?.id,
      name: 'pics/dot.png',
      bucketId: bucket,
      size: 7,
      contentType: 'image/png',
      cacheControl: 'max-age=60',
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
      metadata: { alt: 'a dot' },
    });
    const [row] = await storage.sql('select owner, owner_id from storage.objects where id = $1', [data?.id]);
    expect(row).toEqual({ owner: user.id, owner_id: user.id });

    const response = await storage.fetchStorage(`/object/${bucket}/pics/dot.png`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': '7',
      'cache-control': 'max-age=60',
      etag: info.data?.etag,
      'last-modified': expect.stringMatching(/GMT$/),
    });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
    );
    const aliased = await storage.fetchStorage(`/object/authenticated/${bucket}/pics/dot.png`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(aliased.status).toBe(200);
  });

  test('an existing path is refused unless upsert; upsert and update replace the bytes and keep the id', async () => {
    const files = storage.service().storage.from(bucket);
    const first = await files.upload('replace/me.txt', 'one', { contentType: 'text/plain' });
    expect(first.error).toBeNull();

    const again = await files.upload('replace/me.txt', 'two');
    expect(again.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    });
    expect(await (await files.download('replace/me.txt')).data?.text()).toBe('one');

    const upserted = await files.upload('replace/me.txt', 'three', { upsert: true });
    expect(upserted.error).toBeNull();
    expect(upserted.data?.id).toBe(first.data?.id);
    expect(await (await files.download('replace/me.txt')).data?.text()).toBe('three');

    const updated = await files.update('replace/me.txt', 'four!');
    expect(updated.error).toBeNull();
    expect(await (await files.download('replace/me.txt')).data?.text()).toBe('four!');
    expect((await files.info('replace/me.txt')).data?.size).toBe(5);
  });

  test('a Range read answers 206 with the requested bytes; a range past the end answers 416', async () => {
    const files = storage.service().storage.from(bucket);
    expect((await files.upload('range/digits.txt', '0123456789')).error).toBeNull();
    const serviceKey = storage.standIn.keys.secretKey;
    const read = (range: string) =>
      storage.fetchStorage(`/object/${bucket}/range/digits.txt`, { headers: { apikey: serviceKey, range } });

    const head = await read('bytes=0-3');
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe('bytes 0-3/10');
    expect(head.headers.get('content-length')).toBe('4');
    expect(await head.text()).toBe('0123');
    expect(await (await read('bytes=7-')).text()).toBe('789');
    expect(await (await read('bytes=-2')).text()).toBe('89');

    const past = await read('bytes=20-30');
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */10');
    expect(await past.json()).toMatchObject({ statusCode: '416' });
  });

  test('list gives the files and folders inside a prefix, with limit, offset, sortBy and search', async () => {
    const files = storage.service().storage.from(bucket);
    for (const name of [
      'list/b.txt',
      'list/a.txt',
      'list/sub/c.txt',
      'list/sub/deeper/d.txt',
      'list/Apple.txt',
    ]) {
      expect((await files.upload(name, name)).error).toBeNull();
    }
    const listing = await files.list('list');
    expect(listing.error).toBeNull();
    expect(listing.data?.map((entry) => entry.name)).toEqual(['Apple.txt', 'a.txt', 'b.txt', 'sub']);
    const folder = listing.data?.find((entry) => entry.name === 'sub');
    expect(folder).toEqual({
      name: 'sub',
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    });
    expect(listing.data?.[1]).toMatchObject({
      id: expect.any(String),
      metadata: { size: 10, mimetype: expect.any(String) },
    });

    const page = await files.list('list/', {
      limit: 2,
      offset: 1,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(page.data?.map((entry) => entry.name)).toEqual(['b.txt', 'a.txt']);
    const searched = await files.list('list', { search: 'a' });
    expect(searched.data?.map((entry) => entry.name)).toEqual(['Apple.txt', 'a.txt']);
    expect((await files.list('list/sub')).data?.map((entry) => entry.name)).toEqual(['c.txt', 'deeper']);
    expect((await files.list('nothing-here')).data).toEqual([]);
  });

  test('remove deletes rows and bytes and answers the removed rows; unknown paths are simply absent', async () => {
    const files = storage.service().storage.from(bucket);
    const kept = await files.upload('remove/keep.txt', 'keep');
    const gone = await files.upload('remove/gone.txt', 'gone');
    const { data, error } = await files.remove(['remove/gone.txt', 'remove/never-was.txt']);
    expect(error).toBeNull();
    expect(data).toEqual([
      expect.objectContaining({
        name: 'remove/gone.txt',
        id: gone.data?.id,
        bucket_id: bucket,
        metadata: expect.any(Object),
      }),
    ]);
    await expect(stat(bytesOnDisk(bucket, gone.data?.id ?? ''))).rejects.toThrow(/ENOENT/);
    expect(await readFile(bytesOnDisk(bucket, kept.data?.id ?? ''), 'utf8')).toBe('keep');
    expect((await files.exists('remove/gone.txt')).data).toBe(false);
    expect((await files.exists('remove/keep.txt')).data).toBe(true);
  });

  test('move renames an object (also into another bucket); copy duplicates it with its own bytes', async () => {
    const files = storage.service().storage.from(bucket);
    const original = await files.upload('move/from.txt', 'moving');
    expect((await files.move('move/from.txt', 'move/to.txt')).error).toBeNull();
    expect((await files.exists('move/from.txt')).data).toBe(false);
    expect(await (await files.download('move/to.txt')).data?.text()).toBe('moving');
    expect((await files.info('move/to.txt')).data?.id).toBe(original.data?.id);

    const other = await storage.newBucket('objects-other');
    const moved = await files.move('move/to.txt', 'arrived.txt', { destinationBucket: other });
    expect(moved.error).toBeNull();
    expect(await (await storage.service().storage.from(other).download('arrived.txt')).data?.text()).toBe(
      'moving',
    );

    expect((await files.upload('copy/source.txt', 'copied')).error).toBeNull();
    const copy = await files.copy('copy/source.txt', 'copy/target.txt');
    expect(copy).toEqual({ data: { path: `${bucket}/copy/target.txt` }, error: null });
    expect((await files.remove(['copy/source.txt'])).error).toBeNull();
    expect(await (await files.download('copy/target.txt')).data?.text()).toBe('copied');

    const clash = await files.move('copy/target.txt', 'replace/me.txt');
    expect(clash.error).toMatchObject({ statusCode: '409' });
  });

  test('every object answer forbids sniffing and sandboxes what it serves; only images the app shows go inline', async () => {
    const open = await storage.newBucket('served', { public: true });
    const files = storage.service().storage.from(open);
    const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const objects: [string, string, boolean][] = [
      ['served/dot.png', 'image/png', true],
      ['served/photo.jpg', 'image/jpeg', true],
      ['served/anim.gif', 'image/gif', true],
      ['served/pic.webp', 'image/webp', true],
      ['served/notes.txt', 'text/plain', false],
      ['served/report.pdf', 'application/pdf', false],
      ['served/logo.svg', 'image/svg+xml', false],
      ['served/page.html', 'text/html', false],
    ];
    for (const [path, contentType] of objects) {
      expect((await files.upload(path, PNG, { contentType })).error).toBeNull();
    }
    const serviceKey = storage.standIn.keys.secretKey;
    const SAFETY = {
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
    };
    for (const [path, contentType, inline] of objects) {
      const signed = (await files.createSignedUrl(path, 60)).data?.signedUrl ?? '';
      const answers: [string, Promise<Response>][] = [
        [
          'authenticated GET',
          storage.fetchStorage(`/object/${open}/${path}`, { headers: { apikey: serviceKey } }),
        ],
        [
          'authenticated HEAD',
          storage.fetchStorage(`/object/authenticated/${open}/${path}`, {
            method: 'HEAD',
            headers: { apikey: serviceKey },
          }),
        ],
        [
          'range',
          storage.fetchStorage(`/object/${open}/${path}`, {
            headers: { apikey: serviceKey, range: 'bytes=0-3' },
          }),
        ],
        ['signed GET', fetch(signed)],
        ['signed HEAD', fetch(signed, { method: 'HEAD' })],
        ['public GET', fetch(files.getPublicUrl(path).data.publicUrl)],
      ];
      const name = path.split('/').pop() ?? '';
      for (const [kind, answer] of answers) {
        const response = await answer;
        const seen = {
          status: response.status,
          'content-type': response.headers.get('content-type'),
          'x-content-type-options': response.headers.get('x-content-type-options'),
          'content-security-policy': response.headers.get('content-security-policy'),
          'content-disposition': response.headers.get('content-disposition'),
        };
        expect(seen, `${kind} of ${path}`).toEqual({
          status: kind === 'range' ? 206 : 200,
          'content-type': contentType,
          ...SAFETY,
          'content-disposition': inline ? null : `attachment; filename*=UTF-8''${name}`,
        });
      }
      // An image asked for as a download is one; `download` names any file.
      const named = await fetch(`${signed}&download=${encodeURIComponent('my file')}`);
      expect(named.headers.get('content-disposition'), path).toBe("attachment; filename*=UTF-8''my%20file");
    }
  });

  test('a public bucket serves its objects at the public URL without credentials; a private one does not', async () => {
    const open = await storage.newBucket('public', { public: true });
    const openFiles = storage.service().storage.from(open);
    expect((await openFiles.upload('logo.txt', 'public bytes')).error).toBeNull();
    const publicUrl = openFiles.getPublicUrl('logo.txt').data.publicUrl;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('public bytes');

    const privateFiles = storage.service().storage.from(bucket);
    expect((await privateFiles.upload('secret.txt', 'private')).error).toBeNull();
    const refused = await fetch(privateFiles.getPublicUrl('secret.txt').data.publicUrl);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  });
});
