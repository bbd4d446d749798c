/**
 * The export's attachments (docs/product.md#api-conventions): the workspace's ready attachments, pending
 * uploads left out, each with its lasting `download_url`, the API's own GET /v1/attachments/{id}/download
 * (not a signed Storage URL, which expires in minutes), which answers the download to whoever may read the
 * workspace.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import { TEST_API_URL, useTestApp } from '../support/api-app.ts';
import { apiClient, bearer, responseOf } from '../support/api-client.ts';
import { expectProblem } from '../support/api-request.ts';
import { attachmentCalls } from '../support/attachment-calls.ts';
import { insertTaskInNewProject } from '../support/task-fixture.ts';
import { createApiTokenFor, useTwoWorkspaces, type WorkspaceFixture } from '../support/workspace-fixture.ts';

type Attachment = components['schemas']['Attachment'];
type AttachmentUpload = components['schemas']['AttachmentUpload'];

const api = useTestApp({ withStorage: true });
const { acme, globex } = useTwoWorkspaces(api);

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small png'),
]);

const taskIn = async (workspace: WorkspaceFixture): Promise<string> =>
  (await insertTaskInNewProject(api.db, workspace)).id;

const attachments = () => attachmentCalls(api.app);

/** Declares a PNG on the task; answers its upload, still pending. */
async function declare(token: string, taskId: string, name: string): Promise<AttachmentUpload> {
  const body = { file_name: name, content_type: 'image/png', size_bytes: PNG.length };
  const declared = await attachments().declare(token, taskId, body);
  expect(declared.status, declared.text).toBe(201);
  return declared.body;
}

/** Declares, uploads and completes a PNG; answers the ready attachment. */
async function attach(token: string, taskId: string, name: string): Promise<Attachment> {
  const upload = await declare(token, taskId, name);
  const put = await fetch(upload.upload.url, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: PNG,
  });
  expect(put.status).toBe(200);
  const completed = await attachments().complete(token, upload.attachment.id);
  expect(completed.status, completed.text).toBe(200);
  return completed.body;
}

const exportAs = (token: string, workspace: WorkspaceFixture) =>
  responseOf(
    apiClient(api.app).GET('/v1/workspaces/{slug}/export', {
      params: { path: { slug: workspace.slug } },
      headers: bearer(token),
    }),
  );

/** Follows an export's download_url (the API's own download of an attachment) in the app under test. */
function follow(downloadUrl: string, token: string) {
  const [, id] = /\/v1\/attachments\/([^/]+)\/download$/.exec(downloadUrl) ?? [];
  expect(downloadUrl, downloadUrl).toBe(`${TEST_API_URL}/v1/attachments/${id}/download`);
  return attachments().download(token, id ?? '');
}

describe('the attachments of GET /v1/workspaces/{slug}/export', () => {
  let ready: Attachment;
  let pending: AttachmentUpload;

  beforeAll(async () => {
    const taskId = await taskIn(acme);
    ready = await attach(acme.member.accessToken, taskId, 'login error.png');
    pending = await declare(acme.member.accessToken, taskId, 'not uploaded yet.png');
    await attach(globex.owner.accessToken, await taskIn(globex), 'elsewhere.png');
  });

  it('holds exactly the ready ones, as the API answers them, each with its lasting download link', async () => {
    const response = await exportAs(acme.owner.accessToken, acme);

    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.body.attachments).toEqual([
      { ...ready, download_url: `${TEST_API_URL}/v1/attachments/${ready.id}/download` },
    ]);
    expect(response.text).not.toContain(pending.attachment.id);
    expect(Object.keys(response.body).at(-1)).toBe('attachments');
  });

  it('links to the download, which answers a signed URL to the file with the same credential', async () => {
    const [exported] = (await exportAs(acme.owner.accessToken, acme)).body.attachments;
    if (!exported) throw new Error('no attachment exported');

    const download = await follow(exported.download_url, acme.owner.accessToken);

    expect(download.status, download.text).toBe(200);
    const link = download.body;
    expect(link.object).toBe('download_link');
    const file = await fetch(link.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
  });

  it("are in an admin's read-only API token's export too; the link answers any reader, no outsider", async () => {
    const token = await createApiTokenFor(api.app, acme.admin, 'read');
    const response = await exportAs(token, acme);
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.body.attachments.map(({ id }) => id)).toEqual([ready.id]);
    const [exported] = response.body.attachments;
    if (!exported) throw new Error('no attachment exported');

    expect((await follow(exported.download_url, token)).status).toBe(200);
    // A viewer may not export, but may download what an export links to; an outsider may not.
    expectProblem(await exportAs(acme.viewer.accessToken, acme), 403, 'forbidden');
    expect((await follow(exported.download_url, acme.viewer.accessToken)).status).toBe(200);
    expectProblem(await follow(exported.download_url, acme.outsider.accessToken), 404, 'not_found');
  });
});
