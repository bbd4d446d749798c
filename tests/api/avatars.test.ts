/**
 * Avatars through the API and the stand-in's Storage (the files work): upload URL, upload, complete (checks),
 * the profile's signed `avatar_url`, replacing and removing.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { runAfterResponseSettled } from '../../supabase/functions/_shared/after-response.ts';
import { AppError } from '../../supabase/functions/_shared/errors.ts';
import type { StorageClient } from '../../supabase/functions/_shared/storage.ts';
import { sweepExpiredUploads } from '../../supabase/functions/api/files/upload-sweep.ts';
import { createTestApp, useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { avatarCalls, type CreateAvatarUpload } from '../support/attachment-calls.ts';
import { meCalls } from '../support/me-calls.ts';
import { memberCalls } from '../support/membership-calls.ts';
import { createTestUser, withBearer, type TestUser } from '../support/test-users.ts';
import { createWorkspaceWithRoles } from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type AvatarUpload = components['schemas']['AvatarUpload'];
type Me = components['schemas']['Me'];

const api = useTestApp({ withStorage: true });

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a tiny avatar'),
]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([20, 0, 0, 0]), Buffer.from('WEBPVP8 rest')]);

const newUser = (): Promise<TestUser> =>
  createTestUser(api.db, {
    email: `avatar-${crypto.randomUUID().slice(0, 8)}@example.com`,
    displayName: 'Ava',
  });

const avatar = () => avatarCalls(api.app);
const start = (user: TestUser, body: CreateAvatarUpload) => avatar().start(user.accessToken, body);
const complete = (user: TestUser) => avatar().complete(user.accessToken);
const me = (user: TestUser) => meCalls(api.app).get(user.accessToken);

/** A person's own call to Storage, with their access token, as supabase-js in a browser would make it. */
function storageAs(user: TestUser, path: string, init?: RequestInit): Promise<Response> {
  if (!api.storage) throw new Error('the test app has no Storage');
  return api.storage.fetchAs(user.accessToken, path, init);
}

/** PUTs the bytes to the upload's signed URL as a browser does, with `type` as Content-Type. */
async function putTo(started: AvatarUpload, bytes: Buffer, type: string): Promise<void> {
  const put = await fetch(started.upload.url, {
    method: 'PUT',
    headers: { 'Content-Type': type },
    body: bytes,
  });
  expect(put.status).toBe(200);
}

async function upload(user: TestUser, bytes: Buffer, type: string): Promise<Me> {
  const started = await start(user, { content_type: type, size_bytes: bytes.length });
  expect(started.status).toBe(201);
  const { upload: target } = started.body;
  const put = await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });
  expect(put.status).toBe(200);
  const completed = await complete(user);
  expect(completed.status).toBe(200);
  return completed.body;
}

async function avatarPathOf(user: TestUser): Promise<string | null> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ avatar_path: string | null }>('select avatar_path from public.profiles where user_id = $1', [
      user.id,
    ]),
  );
  return row?.avatar_path ?? null;
}

async function avatarObjects(user: TestUser): Promise<string[]> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ name: string }>(
      `select name from storage.objects where bucket_id = 'avatars' and name like $1 || '/%' order by name`,
      [user.id],
    ),
  );
  return rows.map((row) => row.name);
}

describe('avatars', () => {
  it('uploads a picture, makes it the avatar and answers it as a signed URL that serves it', async () => {
    const user = await newUser();
    const before = (await me(user)).body;
    expect(before.avatar_url).toBeNull();
    const started = await start(user, { content_type: 'image/png', size_bytes: PNG.length });
    expect(started.status).toBe(201);
    const { upload: target } = started.body;
    expect(target.url).toContain(`/storage/v1/object/upload/sign/avatars/${user.id}/`);
    await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: PNG });

    const completed = await complete(user);
    expect(completed.status).toBe(200);
    const after = completed.body;
    expect(after.version).toBe(before.version + 1);
    expect(after.avatar_url).toContain(`/storage/v1/object/sign/avatars/${user.id}/`);
    const served = await fetch(after.avatar_url ?? '');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await me(user)).body).toMatchObject({ avatar_url: expect.stringContaining('token=') });
  });

  it('replacing the avatar removes the old picture; DELETE removes the avatar and its picture', async () => {
    const user = await newUser();
    await upload(user, PNG, 'image/png');
    const first = await avatarPathOf(user);
    await upload(user, WEBP, 'image/webp');
    const second = await avatarPathOf(user);
    expect(second).not.toBe(first);
    expect(await avatarObjects(user)).toEqual([second]);

    const removed = await callApi(
      api.app,
      '/api/v1/me/avatar',
      withBearer(user.accessToken, { method: 'DELETE' }),
    );
    expect(removed.status).toBe(204);
    expect(await avatarPathOf(user)).toBeNull();
    expect(await avatarObjects(user)).toEqual([]);
    expect((await me(user)).body).toMatchObject({ avatar_url: null });
  });

  it('refuses other types (415) and pictures over 2 MiB (413)', async () => {
    const user = await newUser();
    for (const type of ['image/gif', 'image/svg+xml', 'text/html']) {
      expectProblem(await start(user, { content_type: type, size_bytes: 10 }), 415, 'unsupported_media_type');
    }
    expectProblem(
      await start(user, { content_type: 'image/png', size_bytes: 2 * 1024 * 1024 + 1 }),
      413,
      'payload_too_large',
    );
  });

  it('completing with no upload under way is 404, before the upload 409, a size mismatch 422', async () => {
    const user = await newUser();
    expectProblem(await complete(user), 404, 'not_found');
    const started = await start(user, { content_type: 'image/png', size_bytes: PNG.length + 1 });
    expectProblem(await complete(user), 409, 'upload_incomplete');
    const { upload: target } = started.body;
    await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: PNG });
    expectProblem(await complete(user), 422, 'validation_failed');
    expect(await avatarPathOf(user)).toBeNull();
    expect(await avatarObjects(user)).toEqual([]);
  });

  it('refuses a file that is not the declared picture (415), and keeps no avatar', async () => {
    const user = await newUser();
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(20, 0x90)]);
    const started = await start(user, { content_type: 'image/png', size_bytes: exe.length });
    const { upload: target } = started.body;
    await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: exe });
    expectProblem(await complete(user), 415, 'unsupported_media_type');
    expect(await avatarPathOf(user)).toBeNull();
    expect(await avatarObjects(user)).toEqual([]);
  });

  it('refuses a picture Storage keeps under another type than declared (415), and keeps no avatar', async () => {
    const user = await newUser();
    const started = await start(user, { content_type: 'image/png', size_bytes: PNG.length });
    // The bucket takes WebP too, and Storage serves an object with the type it was uploaded with.
    await putTo(started.body, PNG, 'image/webp');
    const refused = await complete(user);
    expect(refused.status, refused.text).toBe(415);
    expect(expectProblem(refused, 415, 'unsupported_media_type').detail).toContain('image/webp');
    expect(await avatarPathOf(user)).toBeNull();
    expect(await avatarObjects(user)).toEqual([]);
  });

  it('refuses to make an avatar of an upload it did not check: one started between the check and the commit (409)', async () => {
    const user = await newUser();
    const checked = await start(user, { content_type: 'image/png', size_bytes: PNG.length });
    await putTo(checked.body, PNG, 'image/png');
    // Of the checked picture's size, but an executable: never checked, it must never become the avatar.
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(PNG.length - 2, 0x90)]);
    const storage = api.storage?.client;
    if (!storage) throw new Error('the test app has no Storage');
    let raced = false;
    // Storage as the check sees it: once the check has read the checked picture's first bytes, the same
    // person starts another upload (POST /v1/me/avatar) and uploads to it, before the commit.
    const racing: StorageClient = {
      ...storage,
      async readStart(bucket, path, count) {
        const bytes = await storage.readStart(bucket, path, count);
        if (!raced) {
          raced = true;
          const second = await start(user, { content_type: 'image/png', size_bytes: exe.length });
          await putTo(second.body, exe, 'image/png');
        }
        return bytes;
      },
    };
    const checking = createTestApp(api.databaseUrl, { storage: racing, sweepUploads: false });
    try {
      const refused = await callApi(
        checking.app,
        '/api/v1/me/avatar/complete',
        withBearer(user.accessToken, { method: 'POST' }),
      );
      expect(raced).toBe(true);
      expect(refused.status, `the unchecked upload became the avatar: ${refused.text}`).toBe(409);
      expect(expectProblem(refused, 409, 'upload_incomplete').detail).toContain('another avatar upload');
      expect(await avatarPathOf(user)).toBeNull();
    } finally {
      await checking.close();
    }
    // Completing again checks the upload under way now, the executable, and refuses it.
    expectProblem(await complete(user), 415, 'unsupported_media_type');
    expect(await avatarPathOf(user)).toBeNull();
  });

  it('a person reads from Storage only their current avatar, not an upload complete has not checked', async () => {
    const user = await newUser();
    const started = await start(user, { content_type: 'image/png', size_bytes: PNG.length });
    await putTo(started.body, PNG, 'image/png');
    const [uploaded] = await avatarObjects(user);
    const read = () => storageAs(user, `/object/avatars/${uploaded ?? ''}`);
    const unchecked = await read();
    expect(unchecked.status, 'its owner read an upload complete had not checked').toBe(400);
    const signed = await storageAs(user, `/object/sign/avatars/${uploaded ?? ''}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    expect(signed.status).toBe(400);
    expect((await complete(user)).status).toBe(200);
    const current = await read();
    expect(current.status).toBe(200);
    expect(Buffer.from(await current.arrayBuffer())).toEqual(PNG);
  });

  it('a replaced picture goes even when Storage is down at the time: its removal stays queued for a later sweep', async () => {
    const user = await newUser();
    await upload(user, PNG, 'image/png');
    const first = await avatarPathOf(user);
    const started = await start(user, { content_type: 'image/webp', size_bytes: WEBP.length });
    await putTo(started.body, WEBP, 'image/webp');
    const storage = api.storage?.client;
    if (!storage) throw new Error('the test app has no Storage');
    // Storage answers the check's reads, then goes down before the replaced picture is removed.
    const failing: StorageClient = {
      ...storage,
      remove: () => Promise.reject(new AppError('unavailable', 'File storage is not reachable right now.')),
    };
    const replacing = createTestApp(api.databaseUrl, { storage: failing, sweepUploads: false });
    try {
      const completed = await callApi(
        replacing.app,
        '/api/v1/me/avatar/complete',
        withBearer(user.accessToken, { method: 'POST' }),
      );
      expect(completed.status).toBe(200);
      await runAfterResponseSettled();
    } finally {
      await replacing.close();
    }
    const second = await avatarPathOf(user);
    expect((await avatarObjects(user)).sort()).toEqual([first, second].sort());
    const queued = () =>
      asService(api.db, (sql) =>
        sql.query<{ object_path: string }>(
          `select object_path from private.storage_removals where bucket_id = 'avatars' and object_path = $1`,
          [first],
        ),
      );
    expect(await queued()).toEqual([{ object_path: first }]);

    await asService(api.db, (sql) =>
      sql.query('update private.storage_removals set next_attempt_at = now() where object_path = $1', [
        first,
      ]),
    );
    await sweepExpiredUploads(api.db, { storage, logger: api.logs.logger });
    expect(await avatarObjects(user)).toEqual([second]);
    expect(await queued()).toEqual([]);
  });

  it("shows in the members list and a member's answer as a signed URL, to fellow members", async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    await upload(workspace.member, PNG, 'image/png');
    const members = (await memberCalls(api.app, workspace).list(workspace.viewer.accessToken)).body.data;
    const avatarOf = (userId: string) => members.find((member) => member.user_id === userId)?.avatar_url;
    expect(avatarOf(workspace.owner.id)).toBeNull();
    const url = avatarOf(workspace.member.id) ?? '';
    expect(url).toContain(`/storage/v1/object/sign/avatars/${workspace.member.id}/`);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(PNG);
    const one = await memberCalls(api.app, workspace).get(workspace.admin.accessToken, workspace.member.id);
    expect(one.body.avatar_url).toContain('token=');
  });
});
