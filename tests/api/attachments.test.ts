/**
 * Attachments end to end through the API and the stand-in's Storage (the files work): declare, upload the
 * bytes to the signed URL as a browser would, complete (size and magic-number checks), list, download,
 * delete; every refusal; and the sweep of uploads left pending.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { runAfterResponseSettled } from '../../supabase/functions/_shared/after-response.ts';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_TASK,
  PENDING_UPLOAD_LIFETIME_SECONDS,
  PENDING_UPLOADS_PER_USER,
  SIGNED_UPLOAD_URL_LIFETIME_SECONDS,
  WORKSPACE_STORAGE_BYTES,
} from '../../supabase/functions/_shared/limits.ts';
import { createStorageClient } from '../../supabase/functions/_shared/storage.ts';
import { drainStorageRemovals } from '../../supabase/functions/api/files/storage-removals.ts';
import { sweepExpiredUploads } from '../../supabase/functions/api/files/upload-sweep.ts';
import { createTestApp, useTestApp } from '../support/api-app.ts';
import { callApi, expectProblem } from '../support/api-request.ts';
import { attachmentCalls, type CreateAttachment } from '../support/attachment-calls.ts';
import { insertTaskInNewProject } from '../support/task-fixture.ts';
import { withBearer } from '../support/test-users.ts';
import {
  createWorkspaceWithRoles,
  useTwoWorkspaces,
  type WorkspaceFixture,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type Attachment = components['schemas']['Attachment'];
type AttachmentUpload = components['schemas']['AttachmentUpload'];

const api = useTestApp({ withStorage: true });
const { acme, globex } = useTwoWorkspaces(api);

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small png'),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
/** A Windows executable's start, renamed to look like a PNG. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(30, 0x90)]);

const taskIn = (workspace: WorkspaceFixture) => insertTaskInNewProject(api.db, workspace);

const calls = () => attachmentCalls(api.app);
const declare = (token: string, taskId: string, body: CreateAttachment) =>
  calls().declare(token, taskId, body);
const complete = (token: string, id: string) => calls().complete(token, id);
const download = (token: string, id: string) => calls().download(token, id);
const remove = (token: string, id: string) => calls().remove(token, id);
const list = (token: string, taskId: string) => calls().list(token, taskId);

/** PUTs the bytes to the signed upload URL as they are, as a browser does: no credentials. */
async function put(upload: AttachmentUpload, bytes: Buffer, type: string): Promise<Response> {
  return fetch(upload.upload.url, { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });
}

/** Declares, uploads and completes a file; answers the ready attachment. */
async function attach(
  token: string,
  taskId: string,
  bytes: Buffer = PNG,
  type = 'image/png',
  name = 'screenshot.png',
): Promise<Attachment> {
  const declared = await declare(token, taskId, {
    file_name: name,
    content_type: type,
    size_bytes: bytes.length,
  });
  expect(declared.status).toBe(201);
  const upload = declared.body;
  expect((await put(upload, bytes, type)).status).toBe(200);
  const completed = await complete(token, upload.attachment.id);
  expect(completed.status).toBe(200);
  return completed.body;
}

async function eventsOf(attachmentId: string): Promise<string[]> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ type: string }>(`select type from public.events where data ->> 'id' = $1 order by seq`, [
      attachmentId,
    ]),
  );
  return rows.map((row) => row.type);
}

async function objectExists(path: string): Promise<boolean> {
  const rows = await asService(api.db, (sql) =>
    sql.query('select 1 from storage.objects where bucket_id = $1 and name = $2', ['attachments', path]),
  );
  return rows.length > 0;
}

/** A person's own call to Storage, with their access token, as supabase-js in a browser would make it. */
function storageAs(token: string, path: string, init?: RequestInit): Promise<Response> {
  if (!api.storage) throw new Error('the test app has no Storage');
  return api.storage.fetchAs(token, path, init);
}

/** The removals of objects still queued (private.storage_removals), for these paths. */
async function queuedRemovals(paths: readonly string[]) {
  return asService(api.db, (sql) =>
    sql.query<{ object_path: string; attempts: number; due: boolean }>(
      `select object_path, attempts, next_attempt_at <= now() as due from private.storage_removals
       where bucket_id = 'attachments' and object_path = any($1) order by object_path`,
      [paths],
    ),
  );
}

/**
 * Objects in the workspace's folder that no attachment names, of `bytes` in all (rows only, as Storage
 * would keep them for files a PUT left behind): what fills a workspace's storage in a test.
 */
async function fillStorage(workspace: Pick<WorkspaceFixture, 'id'>, bytes: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `insert into storage.objects (bucket_id, name, metadata)
       values ('attachments', $1, jsonb_build_object('size', $2::bigint, 'mimetype', 'application/zip'))`,
      [`${workspace.id}/${randomUUID()}/${randomUUID()}`, bytes],
    ),
  );
}

const files = () => ({ storage: api.storage?.client, logger: api.logs.logger });

async function objectPathOf(id: string): Promise<string> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<{ object_path: string }>('select object_path from public.attachments where id = $1', [id]),
  );
  if (!row) throw new Error('no attachment');
  return row.object_path;
}

describe('attaching a file', () => {
  it('declares, uploads to the signed URL, completes; the attachment is ready and attachment.added is logged', async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'login error.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    expect(declared.status).toBe(201);
    const upload = declared.body;
    expect(upload.attachment).toMatchObject({
      object: 'attachment',
      task_id: task.id,
      file_name: 'login error.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
      status: 'pending',
      uploaded_by: acme.member.id,
      ready_at: null,
    });
    expect(declared.headers.get('location')).toBe(`../../attachments/${upload.attachment.id}`);
    // The server chose the path: workspace, task, attachment; never the file's name.
    const path = await objectPathOf(upload.attachment.id);
    expect(path).toBe(`${acme.id}/${task.id}/${upload.attachment.id}`);
    expect(upload.upload.url).toContain(`/storage/v1/object/upload/sign/attachments/${path}?token=`);
    expect(upload.upload.url).toContain(upload.upload.token);
    const expiresIn = Date.parse(upload.upload.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(7100_000);
    expect(expiresIn).toBeLessThanOrEqual(7200_000);

    expect((await put(upload, PNG, 'image/png')).status).toBe(200);
    const completed = await complete(acme.member.accessToken, upload.attachment.id);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ id: upload.attachment.id, status: 'ready', version: 2 });
    expect(await eventsOf(upload.attachment.id)).toEqual(['attachment.added']);

    // Completing again answers it as it is, and logs nothing more.
    const again = await complete(acme.member.accessToken, upload.attachment.id);
    expect(again.body).toEqual(completed.body);
    expect(await eventsOf(upload.attachment.id)).toEqual(['attachment.added']);
  });

  it('refuses a viewer (403) and an outsider (404)', async () => {
    const task = await taskIn(acme);
    const file = { file_name: 'a.png', content_type: 'image/png', size_bytes: 10 };
    expectProblem(await declare(acme.viewer.accessToken, task.id, file), 403, 'forbidden');
    expectProblem(await declare(acme.outsider.accessToken, task.id, file), 404, 'not_found');
    expectProblem(await declare(globex.owner.accessToken, task.id, file), 404, 'not_found');
  });

  it('refuses a declared 26 MiB file (413), SVG and HTML (415), and a file name with a folder (422)', async () => {
    const task = await taskIn(acme);
    const token = acme.member.accessToken;
    const tooLarge = await declare(token, task.id, {
      file_name: 'big.zip',
      content_type: 'application/zip',
      size_bytes: 26 * 1024 * 1024,
    });
    expect(expectProblem(tooLarge, 413, 'payload_too_large').detail).toContain('26214400');
    for (const type of ['image/svg+xml', 'text/html', 'application/x-msdownload']) {
      const refused = await declare(token, task.id, { file_name: 'x', content_type: type, size_bytes: 10 });
      expect(expectProblem(refused, 415, 'unsupported_media_type').detail).toContain(type);
    }
    for (const name of [
      '../etc/passwd',
      'dir/file.png',
      'dir\\file.png',
      '',
      ' '.repeat(3),
      'x'.repeat(256),
    ]) {
      const refused = await declare(token, task.id, {
        file_name: name,
        content_type: 'image/png',
        size_bytes: 10,
      });
      expect(expectProblem(refused, 422, 'validation_failed').errors?.[0]?.path).toBe('body.file_name');
    }
    expectProblem(
      await declare(token, task.id, { file_name: 'a.png', content_type: 'image/png', size_bytes: 0 }),
      422,
      'validation_failed',
    );
    const rows = await asService(api.db, (sql) =>
      sql.query('select 1 from public.attachments where task_id = $1', [task.id]),
    );
    expect(rows).toEqual([]);
  });

  it(`allows ${ATTACHMENTS_PER_TASK} attachments per task, pending ones included; the next is 409 limit_reached`, async () => {
    // A workspace of its own: its member's pending uploads would hold up the other tests' (pending_uploads_per_user).
    const workspace = await createWorkspaceWithRoles(api.db);
    const task = await taskIn(workspace);
    const file = { file_name: 'log.txt', content_type: 'text/plain', size_bytes: 5 };
    for (let index = 0; index < ATTACHMENTS_PER_TASK; index += 1) {
      expect((await declare(workspace.member.accessToken, task.id, file)).status).toBe(201);
    }
    const refused = await declare(workspace.admin.accessToken, task.id, file);
    expect(expectProblem(refused, 409, 'limit_reached').detail).toContain('attachments_per_task');
  });

  it('refuses to attach to a task of an archived project (409)', async () => {
    const task = await taskIn(acme);
    await asService(api.db, (sql) =>
      sql.query('update public.projects set archived_at = now() where id = $1', [task.projectId]),
    );
    const file = { file_name: 'a.png', content_type: 'image/png', size_bytes: 10 };
    expectProblem(await declare(acme.member.accessToken, task.id, file), 409, 'project_archived');
  });
});

describe('completing an upload', () => {
  it('before anything was uploaded is 409 upload_incomplete, and the attachment stays pending', async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'a.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    const { attachment } = declared.body;
    expectProblem(await complete(acme.member.accessToken, attachment.id), 409, 'upload_incomplete');
    const got = await callApi(
      api.app,
      `/api/v1/attachments/${attachment.id}`,
      withBearer(acme.member.accessToken),
    );
    expect(got.body).toMatchObject({ status: 'pending' });
  });

  it('refuses a file of another size than declared (422) and removes the attachment and its object', async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'a.png',
      content_type: 'image/png',
      size_bytes: PNG.length + 100,
    });
    const upload = declared.body;
    const path = await objectPathOf(upload.attachment.id);
    expect((await put(upload, PNG, 'image/png')).status).toBe(200);
    const refused = await complete(acme.member.accessToken, upload.attachment.id);
    expect(expectProblem(refused, 422, 'validation_failed').errors).toEqual([
      {
        path: 'size_bytes',
        code: 'size_mismatch',
        message: `the uploaded file has ${PNG.length} bytes, not ${PNG.length + 100}`,
      },
    ]);
    expect(await objectExists(path)).toBe(false);
    expectProblem(await complete(acme.member.accessToken, upload.attachment.id), 404, 'not_found');
  });

  it('refuses a renamed executable declared as a PNG (415) and removes it', async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'cute-cat.png',
      content_type: 'image/png',
      size_bytes: EXE.length,
    });
    const upload = declared.body;
    const path = await objectPathOf(upload.attachment.id);
    expect((await put(upload, EXE, 'image/png')).status).toBe(200);
    const refused = await complete(acme.member.accessToken, upload.attachment.id);
    expect(expectProblem(refused, 415, 'unsupported_media_type').detail).toContain('not a PNG image');
    expect(await objectExists(path)).toBe(false);
    expect(await eventsOf(upload.attachment.id)).toEqual([]);
  });

  it('refuses a file Storage keeps under another type than declared (415), and removes it', async () => {
    const task = await taskIn(acme);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'spinner.gif',
      content_type: 'image/gif',
      size_bytes: gif.length,
    });
    const upload = declared.body;
    const path = await objectPathOf(upload.attachment.id);
    // The bucket takes image/png too, and Storage serves an object with the type it was uploaded with.
    expect((await put(upload, gif, 'image/png')).status).toBe(200);
    const refused = await complete(acme.member.accessToken, upload.attachment.id);
    expect(refused.status, refused.text).toBe(415);
    expect(expectProblem(refused, 415, 'unsupported_media_type').detail).toContain('image/png');
    expect(await objectExists(path)).toBe(false);
    expectProblem(await complete(acme.member.accessToken, upload.attachment.id), 404, 'not_found');
    expect(await eventsOf(upload.attachment.id)).toEqual([]);
  });

  it('refuses the reported image/gif/,text/html when Storage took it, as hosted Storage does (415)', async () => {
    const task = await taskIn(acme);
    const page = Buffer.from('GIF89a<html><script>alert(document.domain)</script></html>');
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'spinner.gif',
      content_type: 'image/gif',
      size_bytes: page.length,
    });
    const upload = declared.body;
    const path = await objectPathOf(upload.attachment.id);
    expect((await put(upload, page, 'image/gif')).status).toBe(200);
    // The stand-in refuses this type at the upload; hosted Storage's check lets it through and keeps it.
    await asService(api.db, (sql) =>
      sql.query(
        `update storage.objects set metadata = metadata || '{"mimetype": "image/gif/,text/html"}'
         where bucket_id = 'attachments' and name = $1`,
        [path],
      ),
    );
    const refused = await complete(acme.member.accessToken, upload.attachment.id);
    expect(expectProblem(refused, 415, 'unsupported_media_type').detail).toContain('image/gif/,text/html');
    expect(await objectExists(path)).toBe(false);
  });

  it("is the uploader's: another editor may not complete it (403), an outsider cannot see it (404)", async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'a.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    const upload = declared.body;
    await put(upload, PNG, 'image/png');
    expectProblem(await complete(acme.admin.accessToken, upload.attachment.id), 403, 'forbidden');
    expectProblem(await complete(acme.viewer.accessToken, upload.attachment.id), 403, 'forbidden');
    expectProblem(await complete(acme.outsider.accessToken, upload.attachment.id), 404, 'not_found');
  });

  it('Storage itself refuses bytes over the bucket limit or of a type the bucket does not take', async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.member.accessToken, task.id, {
      file_name: 'page.txt',
      content_type: 'text/plain',
      size_bytes: 20,
    });
    const response = await put(declared.body, Buffer.from('<html></html>'), 'text/html');
    expect(response.ok).toBe(false);
  });
});

describe('listing, downloading, deleting', () => {
  it("lists the ready attachments and the caller's own pending ones, oldest first", async () => {
    const task = await taskIn(acme);
    const ready = await attach(acme.member.accessToken, task.id);
    const mine = await declare(acme.admin.accessToken, task.id, {
      file_name: 'pending.pdf',
      content_type: 'application/pdf',
      size_bytes: PDF.length,
    });
    const pendingId = mine.body.attachment.id;
    const asAdmin = await list(acme.admin.accessToken, task.id);
    expect(asAdmin.body.data.map((a) => a.id)).toEqual([ready.id, pendingId]);
    const asViewer = await list(acme.viewer.accessToken, task.id);
    expect(asViewer.body.data.map((a) => a.id)).toEqual([ready.id]);
    expectProblem(await list(acme.outsider.accessToken, task.id), 404, 'not_found');
  });

  it('gives a viewer a 5-minute signed link that serves the bytes; a PDF as a download under its name', async () => {
    const task = await taskIn(acme);
    const pdf = await attach(acme.member.accessToken, task.id, PDF, 'application/pdf', 'Q3 report.pdf');
    const link = await download(acme.viewer.accessToken, pdf.id);
    expect(link.status).toBe(200);
    const { url, expires_at } = link.body;
    const expiresIn = Date.parse(expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(290_000);
    expect(expiresIn).toBeLessThanOrEqual(300_000);
    expect(url).toContain('&download=Q3%20report.pdf');
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PDF);
  });

  it('serves an image inline (no download name), so that it can be shown', async () => {
    const task = await taskIn(acme);
    const png = await attach(acme.member.accessToken, task.id);
    const { url } = (await download(acme.member.accessToken, png.id)).body;
    expect(url).not.toContain('download=');
    const served = await fetch(url);
    expect(served.headers.get('content-disposition') ?? '').not.toMatch(/^attachment/);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
  });

  it('serves a file that is not an image as a download even when its link loses download=, and nothing sniffed or scripted', async () => {
    const task = await taskIn(acme);
    const pdf = await attach(acme.member.accessToken, task.id, PDF, 'application/pdf', 'Q3 report.pdf');
    const { url } = (await download(acme.viewer.accessToken, pdf.id)).body;
    const stripped = new URL(url);
    stripped.searchParams.delete('download');
    const served = await fetch(stripped);
    expect(served.status).toBe(200);
    expect({
      'content-type': served.headers.get('content-type'),
      'content-disposition': served.headers.get('content-disposition'),
      'x-content-type-options': served.headers.get('x-content-type-options'),
      'content-security-policy': served.headers.get('content-security-policy'),
    }).toEqual({
      'content-type': 'application/pdf',
      'content-disposition': expect.stringMatching(/^attachment; /),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
    });
    const png = await attach(acme.member.accessToken, task.id);
    const image = await fetch((await download(acme.viewer.accessToken, png.id)).body.url);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });

  it("answers an outsider's download request 404, and a pending attachment's 409", async () => {
    const task = await taskIn(acme);
    const png = await attach(acme.member.accessToken, task.id);
    expectProblem(await download(acme.outsider.accessToken, png.id), 404, 'not_found');
    expectProblem(await download(globex.owner.accessToken, png.id), 404, 'not_found');
    const pending = await declare(acme.member.accessToken, task.id, {
      file_name: 'b.png',
      content_type: 'image/png',
      size_bytes: 10,
    });
    const pendingId = pending.body.attachment.id;
    expectProblem(await download(acme.viewer.accessToken, pendingId), 409, 'upload_incomplete');
    expectProblem(await download(acme.member.accessToken, pendingId), 409, 'upload_incomplete');
  });

  it("lets its uploader delete an attachment (row, object, attachment.deleted); a member not others'; an admin anyone's", async () => {
    const task = await taskIn(acme);
    const own = await attach(acme.member.accessToken, task.id);
    const ownPath = await objectPathOf(own.id);
    expect((await remove(acme.member.accessToken, own.id)).status).toBe(204);
    expect(await objectExists(ownPath)).toBe(false);
    expect(await eventsOf(own.id)).toEqual(['attachment.added', 'attachment.deleted']);
    expectProblem(await remove(acme.member.accessToken, own.id), 404, 'not_found');

    const admins = await attach(acme.admin.accessToken, task.id);
    expectProblem(await remove(acme.member.accessToken, admins.id), 403, 'forbidden');
    expectProblem(await remove(acme.viewer.accessToken, admins.id), 403, 'forbidden');
    expectProblem(await remove(acme.outsider.accessToken, admins.id), 404, 'not_found');
    const members = await attach(acme.member.accessToken, task.id);
    expect((await remove(acme.admin.accessToken, members.id)).status).toBe(204);
    expect((await remove(acme.owner.accessToken, admins.id)).status).toBe(204);
  });
});

describe('the upload sweep', () => {
  it('removes pending attachments past their window with their objects, and objects no attachment owns', async () => {
    const task = await taskIn(acme);
    const stale = await declare(acme.member.accessToken, task.id, {
      file_name: 'stale.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    const staleUpload = stale.body;
    await put(staleUpload, PNG, 'image/png');
    const fresh = await declare(acme.member.accessToken, task.id, {
      file_name: 'fresh.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    const freshUpload = fresh.body;
    await put(freshUpload, PNG, 'image/png');
    const ready = await attach(acme.member.accessToken, task.id);
    const stalePath = await objectPathOf(staleUpload.attachment.id);
    const freshPath = await objectPathOf(freshUpload.attachment.id);
    const readyPath = await objectPathOf(ready.id);
    await asService(api.db, async (sql) => {
      await sql.query(`update public.attachments set created_at = now() - $2::interval where id = $1`, [
        staleUpload.attachment.id,
        `${PENDING_UPLOAD_LIFETIME_SECONDS + 60} seconds`,
      ]);
      await sql.query(
        `update storage.objects set created_at = now() - interval '2 hours' where bucket_id = 'attachments'`,
      );
    });
    // A ready attachment's row goes, by a statement of its own rather than through the API: its object is
    // queued for removal, and the sweep's drain removes it.
    const doomed = await taskIn(acme);
    const orphan = await attach(acme.member.accessToken, doomed.id);
    const orphanPath = await objectPathOf(orphan.id);
    // A deleted task's file stays while its task can be restored (docs/decisions/0038), old as it is.
    const trashed = await taskIn(acme);
    const trashedPath = await objectPathOf((await attach(acme.member.accessToken, trashed.id)).id);
    await asService(api.db, async (sql) => {
      await sql.query(
        `update storage.objects set created_at = now() - interval '2 hours' where name = any($1)`,
        [[orphanPath, trashedPath]],
      );
      await sql.query('delete from public.attachments where id = $1', [orphan.id]);
      await sql.query('delete from public.tasks where id = $1', [trashed.id]);
    });

    const swept = await sweepExpiredUploads(api.db, {
      storage: api.storage?.client,
      logger: api.logs.logger,
    });
    expect(swept.queued.attachments).toBeGreaterThanOrEqual(1);
    expect(swept.removed).toBeGreaterThanOrEqual(2);
    expect(await objectExists(stalePath)).toBe(false);
    expect(await objectExists(orphanPath)).toBe(false);
    expect(await objectExists(freshPath)).toBe(true);
    expect(await objectExists(readyPath)).toBe(true);
    expect(await objectExists(trashedPath)).toBe(true);
    expect(await queuedRemovals([trashedPath])).toEqual([]);
    const left = await asService(api.db, (sql) =>
      sql.query<{ id: string }>('select id from public.attachments where task_id = $1 order by created_at', [
        task.id,
      ]),
    );
    expect(left.map((row) => row.id).sort()).toEqual([freshUpload.attachment.id, ready.id].sort());
  });
});

describe('reading objects straight from Storage', () => {
  it("a member reads a ready file with their own token; no one a pending upload, nor a deleted task's file", async () => {
    const task = await taskIn(acme);
    const ready = await attach(acme.member.accessToken, task.id);
    const readyPath = await objectPathOf(ready.id);
    const pending = await declare(acme.member.accessToken, task.id, {
      file_name: 'later.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    const pendingUpload = pending.body;
    await put(pendingUpload, PNG, 'image/png');
    const pendingPath = await objectPathOf(pendingUpload.attachment.id);

    const read = (token: string, path: string) => storageAs(token, `/object/attachments/${path}`);
    const served = await read(acme.viewer.accessToken, readyPath);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await read(acme.outsider.accessToken, readyPath)).status).toBe(400);
    // Not even its uploader reads or signs an upload before `complete` has checked it.
    const unchecked = await read(acme.member.accessToken, pendingPath);
    expect(unchecked.status, 'its uploader read an upload complete had not checked').toBe(400);
    expect({ status: unchecked.status, body: await unchecked.json() }).toMatchObject({
      status: 400,
      body: { statusCode: '404', code: 'NoSuchKey' },
    });
    const signed = await storageAs(acme.member.accessToken, `/object/sign/attachments/${pendingPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    expect(signed.status).toBe(400);

    expect(
      (
        await callApi(
          api.app,
          `/api/v1/tasks/${task.id}`,
          withBearer(acme.member.accessToken, { method: 'DELETE' }),
        )
      ).status,
    ).toBe(204);
    expectProblem(await download(acme.viewer.accessToken, ready.id), 404, 'not_found');
    expect((await read(acme.viewer.accessToken, readyPath)).status).toBe(400);
    expect((await read(acme.owner.accessToken, readyPath)).status).toBe(400);
  });
});

describe('removing the files of what is deleted', () => {
  it("deleting a project or a workspace removes their files after the answer; a task's go when it is purged", async () => {
    const doomed = await createWorkspaceWithRoles(api.db);
    const [inTask, inProject, inWorkspace] = await Promise.all([taskIn(acme), taskIn(acme), taskIn(doomed)]);
    const paths = await Promise.all(
      [
        [acme, inTask],
        [acme, inProject],
        [doomed, inWorkspace],
      ].map(async ([workspace, task]) => {
        const { owner } = workspace as WorkspaceFixture;
        return objectPathOf((await attach(owner.accessToken, (task as { id: string }).id)).id);
      }),
    );
    const [projectKey] = await asService(api.db, (sql) =>
      sql.query<{ key: string }>('select key from public.projects where id = $1', [inProject.projectId]),
    );
    const deletions = [
      `/api/v1/tasks/${inTask.id}`,
      `${acme.path}/projects/${projectKey?.key ?? ''}`,
      doomed.path,
    ];
    for (const [index, path] of deletions.entries()) {
      const owner = index === 2 ? doomed.owner : acme.owner;
      const deleted = await callApi(api.app, path, withBearer(owner.accessToken, { method: 'DELETE' }));
      expect(deleted.status, deleted.text).toBe(204);
    }
    await runAfterResponseSettled();
    const [taskPath = '', ...others] = paths;
    for (const path of others) expect(await objectExists(path), path).toBe(false);
    expect(await queuedRemovals(others)).toEqual([]);
    // The deleted task can be restored for 30 days: its file stays, queued for nothing, until the purge.
    expect(await objectExists(taskPath)).toBe(true);
    expect(await queuedRemovals([taskPath])).toEqual([]);
    await asService(api.db, async (sql) => {
      await sql.query(
        `update private.deleted_tasks set deleted_at = now() - interval '31 days' where id = $1`,
        [inTask.id],
      );
      await sql.query('select * from private.delete_expired_rows()');
    });
    await drainStorageRemovals(api.db, files());
    expect(await objectExists(taskPath)).toBe(false);
    expect(await queuedRemovals([taskPath])).toEqual([]);
  });

  it('at least once: while Storage is down the removal stays queued, and a later sweep removes it', async () => {
    const task = await taskIn(acme);
    const path = await objectPathOf((await attach(acme.member.accessToken, task.id)).id);
    const [project] = await asService(api.db, (sql) =>
      sql.query<{ key: string }>('select key from public.projects where id = $1', [task.projectId]),
    );
    // An instance of the API whose Storage does not answer.
    const down = createTestApp(api.databaseUrl, {
      storage: createStorageClient({ url: 'http://127.0.0.1:1', serviceKey: 'unused', timeoutMs: 1000 }),
      sweepUploads: false,
    });
    try {
      const deleted = await callApi(
        down.app,
        `${acme.path}/projects/${project?.key ?? ''}`,
        withBearer(acme.owner.accessToken, { method: 'DELETE' }),
      );
      expect(deleted.status).toBe(204);
      await runAfterResponseSettled();
      expect(down.logs.entries.map((entry) => entry.msg)).toContain(
        'could not remove objects; they stay queued',
      );
    } finally {
      await down.close();
    }
    expect(await objectExists(path)).toBe(true);
    expect(await queuedRemovals([path])).toEqual([{ object_path: path, attempts: 1, due: false }]);

    // The back-off passes; the next sweep (any instance's) finds the removal due and makes it.
    await asService(api.db, (sql) =>
      sql.query('update private.storage_removals set next_attempt_at = now() where object_path = $1', [path]),
    );
    await sweepExpiredUploads(api.db, files());
    expect(await objectExists(path)).toBe(false);
    expect(await queuedRemovals([path])).toEqual([]);
  });
});

describe('quotas', () => {
  it(`a person has at most ${PENDING_UPLOADS_PER_USER} uploads pending, counted under a lock; a completed one frees its place`, async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const tasks = await Promise.all([taskIn(workspace), taskIn(workspace)]);
    const file = { file_name: 'a.png', content_type: 'image/png', size_bytes: PNG.length };
    const answers = await Promise.all(
      Array.from({ length: PENDING_UPLOADS_PER_USER + 6 }, (_, index) =>
        declare(workspace.member.accessToken, tasks[index % 2]?.id ?? '', file),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(PENDING_UPLOADS_PER_USER);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(6);
    for (const answer of refused) {
      expect(expectProblem(answer, 409, 'limit_reached').detail).toContain('pending_uploads_per_user');
    }
    // Someone else in the same workspace is not held up by them.
    expect((await declare(workspace.admin.accessToken, tasks[0]?.id ?? '', file)).status).toBe(201);

    const first = answers.find((answer) => answer.status === 201)?.body;
    if (!first) throw new Error('no declaration was accepted');
    await put(first, PNG, 'image/png');
    expect((await complete(workspace.member.accessToken, first.attachment.id)).status).toBe(200);
    expect((await declare(workspace.member.accessToken, tasks[0]?.id ?? '', file)).status).toBe(201);
  });

  it(`a workspace holds at most ${WORKSPACE_STORAGE_BYTES} bytes: its objects, orphans included, and pending uploads`, async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const task = await taskIn(workspace);
    await fillStorage(workspace, WORKSPACE_STORAGE_BYTES - ATTACHMENT_MAX_BYTES - 5 * 1024 * 1024);
    const zip = (size: number) => ({
      file_name: 'build.zip',
      content_type: 'application/zip',
      size_bytes: size,
    });
    // A pending upload holds what it declared: 5 MiB are left.
    expect((await declare(workspace.member.accessToken, task.id, zip(ATTACHMENT_MAX_BYTES))).status).toBe(
      201,
    );
    const over = await declare(workspace.admin.accessToken, task.id, zip(5 * 1024 * 1024 + 1));
    expect(over.status, 'a declaration past the quota').toBe(409);
    expect(expectProblem(over, 409, 'limit_reached').detail).toContain('workspace_storage_bytes');
    expect((await declare(workspace.admin.accessToken, task.id, zip(5 * 1024 * 1024))).status).toBe(201);
    expectProblem(await declare(workspace.owner.accessToken, task.id, zip(1)), 409, 'limit_reached');
    // Another workspace's quota is its own.
    expect((await declare(acme.member.accessToken, (await taskIn(acme)).id, zip(1024))).status).toBe(201);
  });

  it('a PUT to an upload URL after its refusal leaves an orphan, which counts until the sweep removes it', async () => {
    const workspace = await createWorkspaceWithRoles(api.db);
    const task = await taskIn(workspace);
    const declared = await declare(workspace.member.accessToken, task.id, {
      file_name: 'a.png',
      content_type: 'image/png',
      size_bytes: PNG.length + 1,
    });
    const upload = declared.body;
    const path = await objectPathOf(upload.attachment.id);
    await put(upload, PNG, 'image/png');
    expectProblem(
      await complete(workspace.member.accessToken, upload.attachment.id),
      422,
      'validation_failed',
    );
    await runAfterResponseSettled();
    expect(await objectExists(path)).toBe(false);
    // Storage still takes the URL (it lives its two hours): the object is back, and no attachment names it.
    expect((await put(upload, PNG, 'image/png')).status).toBe(200);
    expect(await objectExists(path)).toBe(true);

    await fillStorage(workspace, WORKSPACE_STORAGE_BYTES - ATTACHMENT_MAX_BYTES);
    const zip = { file_name: 'build.zip', content_type: 'application/zip', size_bytes: ATTACHMENT_MAX_BYTES };
    const refused = await declare(workspace.member.accessToken, task.id, zip);
    expect(refused.status, refused.text).toBe(409);
    expect(expectProblem(refused, 409, 'limit_reached').detail).toContain('workspace_storage_bytes');

    // Once older than an hour, the orphan is swept, and its bytes are free again.
    await asService(api.db, (sql) =>
      sql.query(`update storage.objects set created_at = now() - interval '61 minutes' where name = $1`, [
        path,
      ]),
    );
    await sweepExpiredUploads(api.db, files());
    expect(await objectExists(path)).toBe(false);
    expect((await declare(workspace.member.accessToken, task.id, zip)).status).toBe(201);
  });

  it('a pending upload counts, and can be completed, for as long as its upload URL lives', async () => {
    const task = await taskIn(acme);
    const declared = await declare(acme.admin.accessToken, task.id, {
      file_name: 'late.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
    });
    const upload = declared.body;
    const lifetime = Date.parse(upload.upload.expires_at) - Date.parse(upload.attachment.created_at);
    expect(lifetime).toBeLessThanOrEqual(PENDING_UPLOAD_LIFETIME_SECONDS * 1000);
    await put(upload, PNG, 'image/png');
    // A minute before the URL expires, the upload is still pending, not expired: what is uploaded while the
    // URL lives is counted and can be completed, never left behind by a sweep that came first.
    await asService(api.db, (sql) =>
      sql.query(`update public.attachments set created_at = created_at - $2::interval where id = $1`, [
        upload.attachment.id,
        `${SIGNED_UPLOAD_URL_LIFETIME_SECONDS - 60} seconds`,
      ]),
    );
    const completed = await complete(acme.admin.accessToken, upload.attachment.id);
    expect(completed.status, completed.text).toBe(200);
  });
});
