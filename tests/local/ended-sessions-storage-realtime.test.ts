/**
 * The second security review, item 2: a banned user, a soft-deleted one, or a signed-out session loses
 * Storage and Realtime as it loses the API, even with an access token that has not expired yet. Storage and
 * Realtime judge by RLS alone, so the policies on storage.objects and realtime.messages ask whether the
 * caller's session is live (private.caller_credential_is_live), through the real stand-in and the official
 * client.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, test } from 'vitest';
import { supabaseClient, uniqueEmails, UNLIMITED_AUTH_RATES, useStandIn } from '../support/stand-in-auth.ts';
import { FAST_REALTIME, realtimeClient, subscribe } from '../support/stand-in-realtime.ts';

const PASSWORD = 'correct horse battery';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png'),
]);

interface Member {
  id: string;
  accessToken: string;
  workspaceId: string;
  objectPath: string;
}

describe('ended sessions and barred users, on Storage and Realtime', () => {
  const standIn = useStandIn({ ...UNLIMITED_AUTH_RATES, ...FAST_REALTIME });
  const newEmail = uniqueEmails('ended');
  let admin: SupabaseClient['auth']['admin'];

  beforeAll(() => {
    admin = supabaseClient(standIn.process.apiUrl, standIn.keys.serviceRoleKey).auth.admin;
  });

  const api = async <T>(token: string, method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${standIn.process.apiUrl}/functions/v1/api/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
    return (text ? JSON.parse(text) : null) as T;
  };

  /** A signed-in owner of a workspace whose task has one ready attachment; both work for them. */
  async function memberWithAFile(): Promise<Member> {
    const email = newEmail();
    expect((await admin.createUser({ email, password: PASSWORD, email_confirm: true })).error).toBeNull();
    const { data, error } = await standIn.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const accessToken = data.session?.access_token ?? '';
    const slug = `ended-${Math.random().toString(36).slice(2, 10)}`;
    const workspace = await api<{ id: string }>(accessToken, 'POST', '/workspaces', { name: 'Ended', slug });
    await api(accessToken, 'POST', `/workspaces/${slug}/projects`, { name: 'Web', key: 'WEB' });
    const task = await api<{ id: string }>(accessToken, 'POST', `/workspaces/${slug}/projects/WEB/tasks`, {
      title: 'With a file',
    });
    const declared = await api<{ attachment: { id: string }; upload: { url: string } }>(
      accessToken,
      'POST',
      `/tasks/${task.id}/attachments`,
      { file_name: 'shot.png', content_type: 'image/png', size_bytes: PNG.length },
    );
    const put = await fetch(declared.upload.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(put.status).toBe(200);
    await api(accessToken, 'POST', `/attachments/${declared.attachment.id}/complete`);
    const member = {
      id: data.user?.id ?? '',
      accessToken,
      workspaceId: workspace.id,
      objectPath: `${workspace.id}/${task.id}/${declared.attachment.id}`,
    };
    const attachmentName = member.objectPath.split('/').at(-1);
    expect(await storageReach(member)).toEqual({
      listed: [attachmentName],
      downloaded: null,
      signed: null,
    });
    expect(await joins(member)).toEqual({ status: 'SUBSCRIBED' });
    return member;
  }

  /**
   * What the member's access token still reaches of their files through /storage/v1: the names its list
   * shows, and the error of a download and of signing a URL (null when they work).
   */
  async function storageReach(member: Member) {
    const asMember = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {}, () =>
      Promise.resolve(member.accessToken),
    );
    const files = asMember.storage.from('attachments');
    const folder = member.objectPath.split('/').slice(0, 2).join('/');
    const listed = await files.list(folder);
    const downloaded = await files.download(member.objectPath);
    const signed = await files.createSignedUrl(member.objectPath, 60);
    const refusal = (error: unknown) =>
      error === null ? null : { statusCode: (error as { statusCode?: string }).statusCode };
    return {
      listed: listed.data?.map((entry) => entry.name) ?? null,
      downloaded: refusal(downloaded.error),
      signed: refusal(signed.error),
    };
  }

  /** How the member's join of their workspace's private topic ends, and the error it ends with. */
  async function joins(member: Member): Promise<{ status: string; error?: string }> {
    const client = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey);
    await client.realtime.setAuth(member.accessToken);
    const channel = client.channel(`workspace:${member.workspaceId}`, { config: { private: true } });
    try {
      const { status, error } = await subscribe(channel);
      return error ? { status, error: error.message } : { status };
    } finally {
      await client.removeAllChannels();
    }
  }

  // What an outsider gets (tests/local/storage-rls.test.ts, realtime-private.test.ts): as if absent.
  const NOTHING = { listed: [], downloaded: { statusCode: '404' }, signed: { statusCode: '404' } };

  test.each([
    ['banned', (member: Member) => admin.updateUserById(member.id, { ban_duration: '24h' })],
    ['soft-deleted', (member: Member) => admin.deleteUser(member.id, true)],
    ['signed out', (member: Member) => admin.signOut(member.accessToken, 'local')],
  ])('a %s user keeps no file and no live topic with an unexpired token', async (_what, end) => {
    const member = await memberWithAFile();
    expect((await end(member)).error).toBeNull();
    expect(await storageReach(member)).toEqual(NOTHING);
    const topic = `workspace:${member.workspaceId}`;
    expect(await joins(member)).toEqual({
      status: 'CHANNEL_ERROR',
      error: `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
    });
  });
});
