import { beforeAll, describe, expect, test } from 'vitest';
import { useStorageStandIn } from '../support/stand-in-storage.ts';

/** Hosted's cursor: base64 of `l:<last name>` lines (`o:` order, `c:` column, `a:` column value after). */
const cursorOf = (...lines: string[]) => Buffer.from(lines.join('\n')).toString('base64');

const anObject = (key: string, name: string) => ({
  key,
  name,
  id: expect.any(String),
  updated_at: expect.any(String),
  created_at: expect.any(String),
  last_accessed_at: expect.any(String),
  metadata: expect.objectContaining({ size: expect.any(Number), mimetype: 'text/plain;charset=UTF-8' }),
});

const aFolder = (key: string, name: string) => ({
  key,
  name,
  id: null,
  updated_at: null,
  created_at: null,
  last_accessed_at: null,
  metadata: null,
});

describe('the stand-in Storage service: listV2 (POST /object/list-v2/{bucket}), as hosted answers it', () => {
  const storage = useStorageStandIn();
  let bucket: string;

  beforeAll(async () => {
    bucket = await storage.newBucket('list-v2');
    const files = storage.service().storage.from(bucket);
    // Uploaded one after another, so created_at follows this order.
    for (const path of ['c.txt', 'b/sub/deep.txt', 'a.txt', 'b/one.txt', 'b/two.txt']) {
      expect((await files.upload(path, `bytes of ${path}`)).error).toBeNull();
    }
  });

  test('with_delimiter: objects and folders apart, full names, folders ending in "/"', async () => {
    const { data, error } = await storage.service().storage.from(bucket).listV2({ with_delimiter: true });
    expect(error).toBeNull();
    expect(data).toEqual({
      hasNext: false,
      folders: [aFolder('b', 'b/')],
      objects: [anObject('a.txt', 'a.txt'), anObject('c.txt', 'c.txt')],
    });

    const inside = await storage
      .service()
      .storage.from(bucket)
      .listV2({ prefix: 'b/', with_delimiter: true });
    expect(inside.data).toEqual({
      hasNext: false,
      folders: [aFolder('sub', 'b/sub/')],
      objects: [anObject('one.txt', 'b/one.txt'), anObject('two.txt', 'b/two.txt')],
    });
  });

  test('without a delimiter: every object under the prefix, paged by cursor in byte order', async () => {
    const files = storage.service().storage.from(bucket);
    const first = await files.listV2({ limit: 2 });
    expect(first.error).toBeNull();
    expect(first.data?.objects.map((object) => object.name)).toEqual(['a.txt', 'b/one.txt']);
    expect(first.data).toMatchObject({
      hasNext: true,
      nextCursor: cursorOf('l:b/one.txt'),
      nextCursorKey: 'b/one.txt',
      folders: [],
    });
    expect(first.data?.objects[0]).toEqual({
      id: expect.any(String),
      name: 'a.txt',
      metadata: expect.objectContaining({ size: 'bytes of a.txt'.length }),
      updated_at: expect.any(String),
      created_at: expect.any(String),
      last_accessed_at: expect.any(String),
    });

    const second = await files.listV2({ limit: 2, cursor: first.data?.nextCursor });
    expect(second.data?.objects.map((object) => object.name)).toEqual(['b/sub/deep.txt', 'b/two.txt']);
    const last = await files.listV2({ limit: 2, cursor: second.data?.nextCursor });
    expect(last.data).toEqual({ hasNext: false, folders: [], objects: [anObjectFlat('c.txt')] });

    const underB = await files.listV2({ prefix: 'b/', sortBy: { column: 'name', order: 'desc' } });
    expect(underB.data?.objects.map((object) => object.name)).toEqual([
      'b/two.txt',
      'b/sub/deep.txt',
      'b/one.txt',
    ]);
  });

  test('a folder is one entry of a page, and the cursor after it skips its contents', async () => {
    const files = storage.service().storage.from(bucket);
    const first = await files.listV2({ prefix: 'b/', with_delimiter: true, limit: 2 });
    expect(first.data).toMatchObject({
      hasNext: true,
      nextCursor: cursorOf('l:b/sub'),
      folders: [{ name: 'b/sub/' }],
      objects: [{ name: 'b/one.txt' }],
    });
    const rest = await files.listV2({
      prefix: 'b/',
      with_delimiter: true,
      limit: 2,
      cursor: first.data?.nextCursor,
    });
    expect(rest.data).toEqual({ hasNext: false, folders: [], objects: [anObject('two.txt', 'b/two.txt')] });
  });

  test('sorted by a timestamp, a folder carries its first object’s created_at as both its times', async () => {
    const { data } = await storage
      .service()
      .storage.from(bucket)
      .listV2({ with_delimiter: true, sortBy: { column: 'created_at', order: 'asc' } });
    const rows = await storage.sql(
      `select min(created_at) as first from storage.objects where bucket_id = $1 and name like 'b/%'`,
      [bucket],
    );
    const first = (rows[0]?.first as Date).toISOString();
    expect(data?.objects.map((object) => object.name)).toEqual(['c.txt', 'a.txt']);
    expect(data?.folders).toEqual([{ ...aFolder('b', 'b/'), created_at: first, updated_at: first }]);
  });

  test('RLS decides as for list: a user sees only what a SELECT policy lets them, anon sees nothing', async () => {
    const own = await storage.newBucket('list-v2-own');
    await storage.sql(
      `create policy "list-v2 test: read own" on storage.objects for select to authenticated
       using (bucket_id = '${own}' and (storage.foldername(name))[1] = auth.uid()::text)`,
    );
    const ada = await storage.newUser();
    const admin = storage.service().storage.from(own);
    expect((await admin.upload(`${ada.id}/mine.txt`, 'ada')).error).toBeNull();
    expect((await admin.upload('someone/else.txt', 'not ada')).error).toBeNull();

    const seen = await ada.client.storage.from(own).listV2({ with_delimiter: true });
    expect(seen).toEqual({
      data: { hasNext: false, folders: [aFolder(ada.id, `${ada.id}/`)], objects: [] },
      error: null,
    });
    expect((await storage.anon().storage.from(own).listV2()).data).toEqual({
      hasNext: false,
      folders: [],
      objects: [],
    });
  });

  test('a body hosted would refuse is refused with its codes and messages', async () => {
    const files = storage.service().storage.from(bucket);
    expect((await files.listV2({ limit: 0 })).error).toMatchObject({
      status: 400,
      statusCode: '400',
      code: 'InvalidRequest',
      message: 'body/limit must be >= 1',
    });
    const badColumn = { column: 'last_accessed_at' } as unknown as { column: 'name' };
    expect((await files.listV2({ sortBy: badColumn })).error).toMatchObject({
      status: 400,
      statusCode: '400',
      code: 'InvalidRequest',
      message: 'body/sortBy/column must be equal to one of the allowed values',
    });
    expect((await files.listV2({ cursor: Buffer.from('nope').toString('base64') })).error).toMatchObject({
      status: 400,
      statusCode: '400',
      code: 'InvalidParameter',
      message: 'Invalid Parameter continuation token',
    });
  });

  test('nothing under /object/list-v2/ is ever taken for an upload into a bucket named list-v2', async () => {
    const admin = storage.service().storage;
    expect((await admin.createBucket('list-v2')).error).toBeNull();
    const nested = await admin.from('list-v2').upload('folder/file.txt', 'bytes');
    expect(nested.error).toMatchObject({ status: 404, statusCode: '404', message: 'Route not found' });
    const updated = await admin.from('list-v2').update('folder/file.txt', 'bytes');
    expect(updated.error).toMatchObject({ status: 404, statusCode: '404' });
    // A single segment is the bucket list-v2 lists, as on hosted: an answer, but no object.
    await admin.from('list-v2').upload('file.txt', 'bytes');
    expect(await storage.sql(`select name from storage.objects where bucket_id = 'list-v2'`)).toEqual([]);
  });
});

function anObjectFlat(name: string) {
  return {
    id: expect.any(String),
    name,
    metadata: expect.objectContaining({ size: expect.any(Number) }),
    updated_at: expect.any(String),
    created_at: expect.any(String),
    last_accessed_at: expect.any(String),
  };
}
