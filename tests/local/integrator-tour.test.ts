/**
 * The integrator's tour (docs/api-tour.md), over real HTTP through the stand-in's gateway to the API
 * function under Deno: with nothing but an API token, create a workspace, invite someone, create projects
 * and labels, page through a list by its Link header, and get a precise problem for each mistake. Then
 * the invited person previews the invitation signed out, and accepts with the token from the mail.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { expectHttpProblem, httpApi, takeFirstSteps, type HttpApi } from '../support/http-api.ts';
import { latestMailTo } from '../support/mailbox-client.ts';
import { UNLIMITED_AUTH_RATES, uniqueEmails, useStandIn } from '../support/stand-in-auth.ts';

const PASSWORD = 'correct horse battery';
const nextEmail = uniqueEmails('tour.');

describe('an integrator with a token and curl', () => {
  const standIn = useStandIn(UNLIMITED_AUTH_RATES);
  const api = (path: string) => `${standIn.process.apiUrl}/functions/v1/api/v1${path}`;
  const call: HttpApi['call'] = (...args) => httpApi(api('')).call(...args);

  async function signUp(email: string): Promise<string> {
    const { data, error } = await standIn.client().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    if (!data.session) throw new Error('signUp returned no session');
    return data.session.access_token;
  }

  test('sets up a team, and the invited person joins it', async () => {
    const ada = nextEmail();
    const grace = nextEmail();
    const session = await signUp(ada);

    // A write token, made once from the signed-in session; everything after uses only the token.
    const { token, slug, created } = await takeFirstSteps(httpApi(api('')), session, 'Tour');
    const workspaceUrl = new URL(created.headers.get('location') ?? '', created.url);
    expect(workspaceUrl.href).toBe(api(`/workspaces/${slug}`));
    expect(await (await call(token, workspaceUrl.href)).json()).toMatchObject({ slug, role: 'owner' });

    const invited = await call(token, `/workspaces/${slug}/invitations`, 'POST', {
      email: grace,
      role: 'member',
    });
    expect(invited.status).toBe(201);
    const invitation = (await invited.json()) as { accept_url: string; status: string };
    expect(invitation.status).toBe('pending');
    const mail = await latestMailTo(standIn.process, grace);
    expect(mail.text).toContain(invitation.accept_url);

    for (const [key, name] of [
      ['ENG', 'Engineering'],
      ['OPS', 'Operations'],
    ]) {
      expect((await call(token, `/workspaces/${slug}/projects`, 'POST', { key, name })).status).toBe(201);
    }
    for (const name of ['bug', 'feature', 'chore']) {
      expect(
        (await call(token, `/workspaces/${slug}/labels`, 'POST', { name, color: '#D73A4A' })).status,
      ).toBe(201);
    }

    // Paging: follow Link rel="next" (relative to the request's address) until there is none.
    const seen: string[] = [];
    let next: string | undefined = api(`/workspaces/${slug}/labels?limit=2`);
    while (next) {
      const page: Response = await call(token, next);
      expect(page.status).toBe(200);
      seen.push(...((await page.json()) as { data: { name: string }[] }).data.map((label) => label.name));
      const link = /^<([^>]*)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
      next = link === undefined ? undefined : new URL(link, page.url).href;
    }
    expect(seen).toEqual(['bug', 'chore', 'feature']);

    // Mistakes answer precise problems and change nothing.
    const badKey = await expectHttpProblem(
      await call(token, `/workspaces/${slug}/projects`, 'POST', { key: 'eng', name: 'Lowercase' }),
      422,
      'validation_failed',
    );
    expect(badKey.errors?.map((error) => error.path)).toEqual(['body.key']);
    await expectHttpProblem(
      await call(token, `/workspaces/${slug}/labels`, 'POST', { name: 'BUG', color: '#000000' }),
      409,
      'label_exists',
    );
    await expectHttpProblem(await call(token, '/workspaces/someone-elses'), 404, 'not_found');
    await expectHttpProblem(await call(token, '/me/tokens'), 403, 'forbidden');

    // Tasks from a CI job, safely retried; a move; a comment; then the change feed, resumed by cursor.
    const feedStart = await call(token, `/workspaces/${slug}/events?types=task.*`);
    const { next_cursor: since } = (await feedStart.json()) as { next_cursor: string };
    const taskKey = randomUUID();
    const newTask = { title: 'Deploy failed on main', priority: 'high' };
    const first = await call(token, `/workspaces/${slug}/projects/ENG/tasks`, 'POST', newTask, {
      'Idempotency-Key': taskKey,
    });
    const retry = await call(token, `/workspaces/${slug}/projects/ENG/tasks`, 'POST', newTask, {
      'Idempotency-Key': taskKey,
    });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const task = (await first.json()) as { id: string; key: string; version: number };
    expect(task.key).toBe('ENG-1');
    const moved = await call(
      token,
      `/tasks/${task.id}/move`,
      'POST',
      { status: 'in_progress' },
      { 'If-Match': `"${task.version}"` },
    );
    expect(moved.status).toBe(200);
    expect(
      (await call(token, `/tasks/${task.id}/comments`, 'POST', { body: 'Looking into it.' })).status,
    ).toBe(201);
    const feed = await call(token, `/workspaces/${slug}/events?types=task.*&after=${since}`);
    const events = (await feed.json()) as {
      data: { type: string; data: { key?: string } }[];
      has_more: boolean;
    };
    expect(events.data.map((event) => [event.type, event.data.key])).toEqual([
      ['task.created', 'ENG-1'],
      ['task.moved', 'ENG-1'],
    ]);
    expect(events.has_more).toBe(false);

    // Before any account: the link previews the invitation with no credentials at all, and no address.
    const invitationToken = new URL(invitation.accept_url).pathname.split('/').at(-1) ?? '';
    const preview = await fetch(api(`/invitations/${invitationToken}`));
    expect(preview.status).toBe(200);
    const previewed = (await preview.json()) as Record<string, unknown>;
    expect(previewed).toMatchObject({ object: 'invitation_preview', email: null, status: 'pending' });
    expect(JSON.stringify(previewed)).not.toContain(grace);

    // The invited person signs up and accepts with the token from the link.
    const graceSession = await signUp(grace);
    const accepted = await call(graceSession, `/invitations/${invitationToken}/accept`, 'POST');
    expect(accepted.status).toBe(200);
    const mine = (await (await call(graceSession, '/workspaces')).json()) as {
      data: { slug: string; role: string }[];
    };
    expect(mine.data).toEqual([expect.objectContaining({ slug, role: 'member' })]);
    const members = (await (await call(token, `/workspaces/${slug}/members`)).json()) as { data: unknown[] };
    expect(members.data).toHaveLength(2);
  });
});
