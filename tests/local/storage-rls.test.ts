import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { useStorageStandIn } from '../support/stand-in-storage.ts';

const RLS_DENIED = { status: 400, statusCode: '403', message: 'new row violates row-level security policy' };

describe('the stand-in Storage service: RLS on storage.objects decides, evaluated as the caller', () => {
  const storage = useStorageStandIn();
  let bucket: string;

  beforeAll(async () => {
    bucket = await storage.newBucket('folders');
    // The usual per-user folder rule, one policy per operation, as an app's migration writes them.
    const own = `bucket_id = '${bucket}' and (storage.foldername(name))[1] = auth.uid()::text`;
    await storage.sql(`
      create policy "rls test: read own" on storage.objects for select to authenticated using (${own});
      create policy "rls test: add own" on storage.objects for insert to authenticated with check (${own});
      create policy "rls test: remove own" on storage.objects for delete to authenticated using (${own});
    `);
  });

  const uploadsLeft = () =>
    readdir(join(storage.standIn.process.dataDir, 'storage', 'uploads')).catch(() => []);
  const filesIn = async () =>
    readdir(join(storage.standIn.process.dataDir, 'storage', 'objects', bucket)).catch(() => []);

  test('a user writes in their own folder only; a refused row leaves no bytes on disk', async () => {
    const ada = await storage.newUser();
    const bob = await storage.newUser();
    const files = ada.client.storage.from(bucket);
    expect((await files.upload(`${ada.id}/mine.txt`, 'ada')).error).toBeNull();
    const before = await filesIn();

    const refused = await files.upload(`${bob.id}/intruder.txt`, 'not yours');
    expect(refused.error).toMatchObject(RLS_DENIED);
    expect((await files.upload('loose.txt', 'no folder')).error).toMatchObject(RLS_DENIED);
    expect(await filesIn()).toEqual(before);
    expect(await uploadsLeft()).toEqual([]);
    const rows = await storage.sql('select name from storage.objects where bucket_id = $1', [bucket]);
    expect(rows.map((row) => row.name)).not.toContain(`${bob.id}/intruder.txt`);
  });

  test("another user's objects are invisible: download, info, list, signing and remove all act as if absent", async () => {
    const ada = await storage.newUser();
    const bob = await storage.newUser();
    const path = `${ada.id}/private.txt`;
    expect((await ada.client.storage.from(bucket).upload(path, 'secret')).error).toBeNull();
    const asBob = bob.client.storage.from(bucket);

    expect((await asBob.download(path)).error).toMatchObject({
      statusCode: '404',
      message: 'Object not found',
    });
    expect(await asBob.exists(path)).toMatchObject({ data: false });
    expect((await asBob.list(ada.id)).data).toEqual([]);
    expect((await asBob.createSignedUrl(path, 60)).error).toMatchObject({ statusCode: '404' });
    expect((await asBob.createSignedUrls([path], 60)).data?.[0]).toMatchObject({ signedUrl: null });
    expect(await asBob.remove([path])).toEqual({ data: [], error: null });
    expect((await asBob.createSignedUploadUrl(path)).error).toMatchObject(RLS_DENIED);
    expect((await storage.anon().storage.from(bucket).download(path)).error).toMatchObject({
      statusCode: '404',
    });

    const asAda = ada.client.storage.from(bucket);
    expect(await (await asAda.download(path)).data?.text()).toBe('secret');
    expect((await asAda.list(ada.id)).data?.map((entry) => entry.name)).toEqual(['private.txt']);
    expect((await asAda.remove([path])).data).toHaveLength(1);
  });

  test('upsert needs UPDATE too: without an UPDATE policy the owner cannot replace, the service role can', async () => {
    const ada = await storage.newUser();
    const path = `${ada.id}/replace.txt`;
    const files = ada.client.storage.from(bucket);
    expect((await files.upload(path, 'one')).error).toBeNull();
    expect((await files.upload(path, 'two', { upsert: true })).error).toMatchObject({ statusCode: '403' });
    expect(await (await files.download(path)).data?.text()).toBe('one');
    expect((await files.move(path, `${ada.id}/moved.txt`)).error).toMatchObject({ statusCode: '404' });

    const service = storage.service().storage.from(bucket);
    expect((await service.upload(path, 'three', { upsert: true })).error).toBeNull();
    expect(await (await files.download(path)).data?.text()).toBe('three');
  });

  test('the policies see the request as Storage sets it: role, claims and the operation', async () => {
    const seen = await storage.newBucket('seen');
    await storage.sql(`
      create policy "rls test: claims" on storage.objects for insert to authenticated with check (
        bucket_id = '${seen}'
        and auth.role() = 'authenticated'
        and auth.jwt() ->> 'email' like 'storage%'
        and current_setting('storage.operation', true) = 'storage.object.upload'
        and current_setting('request.method', true) = 'POST'
        and owner_id = auth.uid()::text
      )`);
    const ada = await storage.newUser();
    expect((await ada.client.storage.from(seen).upload('ok.txt', 'x')).error).toBeNull();
    expect((await ada.client.storage.from(seen).update('ok.txt', 'y')).error).toMatchObject({
      statusCode: '403',
    });
    expect((await storage.anon().storage.from(seen).upload('anon.txt', 'x')).error).toMatchObject(RLS_DENIED);
  });

  test('a policy that never finishes is cut off by the statement timeout instead of hanging the request', async () => {
    const slow = await storage.newBucket('slow');
    await storage.sql(`
      create function public.storage_test_sleep() returns boolean language sql as 'select pg_sleep(30) is null';
      create policy "rls test: slow" on storage.objects for select to authenticated
        using (bucket_id = '${slow}' and public.storage_test_sleep());
    `);
    await storage.service().storage.from(slow).upload('x.txt', 'x');
    const ada = await storage.newUser();
    const started = Date.now();
    const { error } = await ada.client.storage.from(slow).download('x.txt');
    expect(error).toMatchObject({ statusCode: '544' });
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
