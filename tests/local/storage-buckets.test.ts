import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { useStorageStandIn } from '../support/stand-in-storage.ts';

describe('the stand-in Storage service: buckets', () => {
  const storage = useStorageStandIn();

  test('createBucket with the service key, then getBucket and listBuckets show it as Storage does', async () => {
    const admin = storage.service().storage;
    const id = `media-${Date.now()}`;
    const created = await admin.createBucket(id, {
      public: false,
      fileSizeLimit: '1MB',
      allowedMimeTypes: ['image/png', 'image/*'],
    });
    expect(created).toEqual({ data: { name: id }, error: null });

    const { data, error } = await admin.getBucket(id);
    expect(error).toBeNull();
    expect(data).toEqual({
      id,
      name: id,
      // Hosted's getBucket selects these columns only, and its serializer writes a null owner as "".
      owner: '',
      public: false,
      file_size_limit: 1_000_000,
      allowed_mime_types: ['image/png', 'image/*'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = await admin.listBuckets({ search: 'media-' });
    expect(listed.data?.map((bucket) => bucket.id)).toContain(id);

    const binary = `binary-${Date.now()}`;
    expect((await admin.createBucket(binary, { public: true, fileSizeLimit: '50MiB' })).error).toBeNull();
    expect((await admin.getBucket(binary)).data).toMatchObject({ public: true, file_size_limit: 52_428_800 });
    expect(
      (await admin.createBucket(`bytes-${Date.now()}`, { public: false, fileSizeLimit: 1234 })).error,
    ).toBeNull();
  });

  test('updateBucket changes what it names; a second bucket of the same id is a 409', async () => {
    const admin = storage.service().storage;
    const id = await storage.newBucket('update');
    const updated = await admin.updateBucket(id, {
      public: true,
      fileSizeLimit: 2048,
      allowedMimeTypes: ['text/*'],
    });
    expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
    expect((await admin.getBucket(id)).data).toMatchObject({
      public: true,
      file_size_limit: 2048,
      allowed_mime_types: ['text/*'],
    });

    const duplicate = await admin.createBucket(id);
    expect(duplicate.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    });
    expect((await admin.updateBucket('no-such-bucket', { public: true })).error).toMatchObject({
      statusCode: '404',
      message: 'Bucket not found',
    });
  });

  test('a bucket with objects cannot be deleted until emptyBucket removes them (rows and bytes)', async () => {
    const admin = storage.service().storage;
    const id = await storage.newBucket('empty');
    const uploaded = await admin.from(id).upload('a/b.txt', 'bytes');
    expect(uploaded.error).toBeNull();

    const refused = await admin.deleteBucket(id);
    expect(refused.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    });

    const emptied = await admin.emptyBucket(id);
    expect(emptied).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    });
    expect((await admin.from(id).list('a')).data).toEqual([]);
    const file = join(storage.standIn.process.dataDir, 'storage', 'objects', id, uploaded.data?.id ?? '');
    await expect(stat(file)).rejects.toThrow(/ENOENT/);

    expect(await admin.deleteBucket(id)).toEqual({ data: { message: 'Successfully deleted' }, error: null });
    expect((await admin.getBucket(id)).error).toMatchObject({
      statusCode: '404',
      message: 'Bucket not found',
    });
    expect((await admin.deleteBucket(id)).error).toMatchObject({ statusCode: '404' });
  });

  test('without the service key, RLS on storage.buckets decides: nothing to see, nothing to create', async () => {
    const id = await storage.newBucket('hidden');
    const user = await storage.newUser();
    expect((await user.client.storage.listBuckets()).data).toEqual([]);
    expect((await user.client.storage.getBucket(id)).error).toMatchObject({ statusCode: '404' });
    const created = await user.client.storage.createBucket(`mine-${Date.now()}`);
    expect(created.error).toMatchObject({
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect((await storage.anon().storage.deleteBucket(id)).error).toMatchObject({ statusCode: '404' });

    await storage.sql(
      `create policy "buckets test: read ${id}" on storage.buckets for select using (id = '${id}')`,
    );
    expect((await user.client.storage.listBuckets()).data?.map((bucket) => bucket.id)).toEqual([id]);
  });

  test('a bucket name Storage would refuse is refused, and so is a size it cannot read', async () => {
    const admin = storage.service().storage;
    expect((await admin.createBucket('has/slash')).error).toMatchObject({ statusCode: '400' });
    expect(
      (await admin.createBucket(`sized-${Date.now()}`, { public: false, fileSizeLimit: 'lots' })).error,
    ).toMatchObject({
      statusCode: '400',
    });
  });
});
