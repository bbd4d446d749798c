import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api-spec/schema.d.ts';
import type { Mailer } from '../../supabase/functions/_shared/mail/mailer.ts';
import { createTestApp, TEST_APP_URL, useTestApp } from '../support/api-app.ts';
import {
  acceptInvitation as acceptInvitationAs,
  invitationCalls,
  memberCalls,
  previewInvitation as previewInvitationAs,
} from '../support/membership-calls.ts';
import { expectProblem } from '../support/api-request.ts';
import { aal2AccessTokenOf, createTestUser, type TestUser } from '../support/test-users.ts';
import {
  createApiTokenFor,
  createWorkspaceWithRoles,
  type WorkspaceFixture,
  type WorkspaceRole,
} from '../support/workspace-fixture.ts';
import { asService } from '../support/service-transaction.ts';

type NewInvitation = components['schemas']['NewInvitation'];

const api = useTestApp();
const DAY_MS = 24 * 60 * 60 * 1000;
const ACCEPT_URL = new RegExp(`^${TEST_APP_URL.replaceAll('.', '\\.')}/invite/[A-Za-z0-9_-]{43}$`);

type InvitationBody = components['schemas']['CreateInvitation'];

const invitations = (fixture: WorkspaceFixture) => invitationCalls(api.app, fixture);
const acceptInvitation = (bearer: string, token: string, headers: Record<string, string> = {}) =>
  acceptInvitationAs(api.app, bearer, token, headers);

const previewInvitation = (bearer: string | undefined, token: string) =>
  previewInvitationAs(api.app, bearer, token);

const uniqueEmail = (name = 'invitee') => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const tokenOf = (invitation: NewInvitation) => invitation.accept_url.split('/').at(-1) ?? '';

async function invite(
  fixture: WorkspaceFixture,
  body: InvitationBody = { email: uniqueEmail(), role: 'member' },
  by: TestUser = fixture.owner,
): Promise<NewInvitation> {
  const response = await invitations(fixture).create(by.accessToken, body);
  expect(response.status).toBe(201);
  return response.body;
}

/** A person signed up with `email`, and an invitation for that address (the case may differ). */
async function inviteNewPerson(
  fixture: WorkspaceFixture,
  role: WorkspaceRole = 'member',
): Promise<{ invitee: TestUser; invitation: NewInvitation }> {
  const email = uniqueEmail('grace');
  const invitee = await createTestUser(api.db, { email: email.toUpperCase(), displayName: 'Grace' });
  return { invitee, invitation: await invite(fixture, { email, role }) };
}

interface StoredInvitation extends Record<string, unknown> {
  id: string;
  email: string;
  role: string;
  status: string;
  token_hash: Buffer;
  invited_by: string | null;
  accepted_by: string | null;
  expires_at: Date;
  version: number;
}

async function storedInvitations(fixture: WorkspaceFixture): Promise<StoredInvitation[]> {
  return asService(api.db, (sql) =>
    sql.query<StoredInvitation>(
      'select * from public.invitations where workspace_id = $1 order by created_at, id',
      [fixture.id],
    ),
  );
}

async function storedInvitation(id: string): Promise<StoredInvitation | undefined> {
  const [row] = await asService(api.db, (sql) =>
    sql.query<StoredInvitation>('select * from public.invitations where id = $1', [id]),
  );
  return row;
}

async function rolesIn(fixture: WorkspaceFixture): Promise<Record<string, string>> {
  const rows = await asService(api.db, (sql) =>
    sql.query<{ user_id: string; role: string }>(
      'select user_id, role::text from public.memberships where workspace_id = $1',
      [fixture.id],
    ),
  );
  return Object.fromEntries(rows.map((row) => [row.user_id, row.role]));
}

/** Adds `count` members with made-up accounts, as the service. */
async function addFillerMembers(fixture: WorkspaceFixture, count: number): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(
      `with filler as (
         insert into auth.users (id, email, aud, role, created_at, updated_at)
         select gen_random_uuid(), 'filler-' || gen_random_uuid() || '@example.com', 'authenticated',
           'authenticated', now(), now()
         from generate_series(1, $2)
         returning id
       )
       insert into public.memberships (workspace_id, user_id, role) select $1, id, 'member' from filler`,
      [fixture.id, count],
    ),
  );
}

async function expireInvitation(id: string): Promise<void> {
  await asService(api.db, (sql) =>
    sql.query(`update public.invitations set expires_at = now() - interval '1 second' where id = $1`, [id]),
  );
}

const sentTo = (email: string) => api.sentMail.filter((mail) => mail.to === email);

describe('POST /api/v1/workspaces/{slug}/invitations', () => {
  it('invites the address and answers the invitation with its link, shown once', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const email = uniqueEmail();
    const response = await invitations(fixture).create(fixture.owner.accessToken, {
      email: ` ${email} `,
      role: 'admin',
    });
    expect(response.status).toBe(201);
    const invitation = response.body;
    expect(invitation).toEqual({
      object: 'invitation',
      id: expect.any(String),
      workspace_id: fixture.id,
      email,
      role: 'admin',
      status: 'pending',
      invited_by: fixture.owner.id,
      accepted_by: null,
      expires_at: expect.any(String),
      version: 1,
      created_at: expect.any(String),
      updated_at: invitation.created_at,
      accept_url: expect.stringMatching(ACCEPT_URL),
    });
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)).toBe(7 * DAY_MS);
    expect(response.headers.get('location')).toBe(`invitations/${invitation.id}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBe('"1"');

    const [stored] = await storedInvitations(fixture);
    expect(stored?.token_hash.toString('hex')).toBe(
      createHash('sha256').update(tokenOf(invitation)).digest('hex'),
    );
    const [dump] = await asService(api.db, (sql) =>
      sql.query<{ row: string }>(
        'select row_to_json(i)::text as row from public.invitations i where id = $1',
        [invitation.id],
      ),
    );
    expect(dump?.row).not.toContain(tokenOf(invitation));
  });

  it('mails the link to the invited address', async () => {
    const fixture = await createWorkspaceWithRoles(api.db, { name: 'Acme <Labs>' });
    const email = uniqueEmail();
    const invitation = await invite(fixture, { email, role: 'member' });
    const [mail, ...more] = sentTo(email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('owner invited you to Acme <Labs> on Tasklane');
    expect(mail?.text).toContain('owner invited you to join Acme <Labs> on Tasklane as a member.');
    // The invited address rides in the link's fragment, for the page to fill in (decision 0042).
    const link = `${invitation.accept_url}#email=${encodeURIComponent(invitation.email)}`;
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(`<a href="${link}">`);
    expect(mail?.html).toContain('Acme &lt;Labs&gt;');
  });

  it("names the invitation's own expiry in its mail (rendered before the invitation is written)", async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const email = uniqueEmail();
    const invitation = await invite(fixture, { email, role: 'viewer' });
    const expires = new Date(invitation.expires_at);
    const utc = { timeZone: 'UTC' } as const;
    const day = expires.toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      ...utc,
    });
    const time = expires.toLocaleTimeString('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...utc,
    });
    const [mail] = sentTo(email);
    expect(mail?.text).toContain(`as a viewer.`);
    expect(mail?.text).toContain(`The link works until ${day}, ${time} UTC, for ${email} only.`);
  });

  it.each([
    ['owner', 'owner'],
    ['owner', 'viewer'],
    ['admin', 'admin'],
    ['admin', 'member'],
  ] as const)('lets an %s invite an %s', async (caller, role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const invitation = await invite(fixture, { email: uniqueEmail(), role }, fixture[caller]);
    expect(invitation).toMatchObject({ role, invited_by: fixture[caller].id });
  });

  it.each([
    ['admin', 'owner', 'Only owners can invite owners.'],
    ['member', 'member', 'Your role in this workspace (member) does not allow you to invite people.'],
    ['viewer', 'viewer', 'Your role in this workspace (viewer) does not allow you to invite people.'],
  ] as const)('refuses an %s inviting an %s with 403, and invites nobody', async (caller, role, detail) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const email = uniqueEmail();
    const problem = expectProblem(
      await invitations(fixture).create(fixture[caller].accessToken, { email, role }),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe(detail);
    expect(await storedInvitations(fixture)).toEqual([]);
    expect(sentTo(email)).toEqual([]);
  });

  it('answers 404 to an outsider, and 403 mfa_required to aal1 where MFA is required', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(
      await invitations(fixture).create(fixture.outsider.accessToken, {
        email: uniqueEmail(),
        role: 'member',
      }),
      404,
      'not_found',
    );
    expect(await storedInvitations(fixture)).toEqual([]);

    const strict = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const body: InvitationBody = { email: uniqueEmail(), role: 'member' };
    expectProblem(await invitations(strict).create(strict.owner.accessToken, body), 403, 'mfa_required');
    expect(await storedInvitations(strict)).toEqual([]);
    expect((await invitations(strict).create(await aal2AccessTokenOf(strict.owner), body)).status).toBe(201);
  });

  it.each([
    [{ role: 'member' }, 'body.email', 'required'],
    [{ email: 'not-an-address', role: 'member' }, 'body.email', 'invalid_format'],
    [{ email: `${'x'.repeat(250)}@example.com`, role: 'member' }, 'body.email', 'too_long'],
    [{ email: 'a@example.com' }, 'body.role', 'required'],
    [{ email: 'a@example.com', role: 'boss' }, 'body.role', 'invalid_value'],
    [{ email: 'a@example.com', role: 'member', token: 'mine' }, 'body.token', 'unknown_field'],
    [
      { email: 'a@example.com', role: 'member', expires_at: '2030-01-01' },
      'body.expires_at',
      'unknown_field',
    ],
  ])('refuses %j with 422 naming %s, and invites nobody', async (body, path, code) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await invitations(fixture).raw.create(fixture.owner.accessToken, body),
      422,
      'validation_failed',
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ path, code }));
    expect(await storedInvitations(fixture)).toEqual([]);
  });

  it("refuses a member's address, whatever its case, with 409 already_member", async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const problem = expectProblem(
      await invitations(fixture).create(fixture.admin.accessToken, {
        email: fixture.viewer.email.toUpperCase(),
        role: 'member',
      }),
      409,
      'already_member',
    );
    expect(problem.detail).toContain('is already a member of this workspace');
    expect(await storedInvitations(fixture)).toEqual([]);
  });

  it('refuses a second pending invitation for the address with 409 invitation_exists', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const email = uniqueEmail();
    await invite(fixture, { email, role: 'member' });
    expectProblem(
      await invitations(fixture).create(fixture.admin.accessToken, {
        email: email.toUpperCase(),
        role: 'viewer',
      }),
      409,
      'invitation_exists',
    );
    expect((await storedInvitations(fixture)).map(({ email: address, status }) => [address, status])).toEqual(
      [[email, 'pending']],
    );
    expect(sentTo(email)).toHaveLength(1);
  });

  it('invites an address again once its invitation was revoked or has expired', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const email = uniqueEmail();
    const revoked = await invite(fixture, { email, role: 'member' });
    expect((await invitations(fixture).remove(fixture.owner.accessToken, revoked.id)).status).toBe(200);
    const expired = await invite(fixture, { email, role: 'member' });
    await expireInvitation(expired.id);
    const fresh = await invite(fixture, { email, role: 'admin' });
    expect((await storedInvitations(fixture)).map((row) => [row.id, row.status])).toEqual([
      [revoked.id, 'revoked'],
      [expired.id, 'expired'],
      [fresh.id, 'pending'],
    ]);
    const retired = (await invitations(fixture).get(fixture.owner.accessToken, expired.id)).body;
    expect(retired.status).toBe('expired');
  });

  it('counts members and pending invitations against the limit of 50 (409 limit_reached)', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await addFillerMembers(fixture, 44);
    const last = await invite(fixture);
    await invite(fixture);
    const problem = expectProblem(
      await invitations(fixture).create(fixture.owner.accessToken, { email: uniqueEmail(), role: 'member' }),
      409,
      'limit_reached',
    );
    expect(problem.detail).toBe(
      'This workspace has 50 members and pending invitations, the limit (members_per_workspace).',
    );
    expect(await storedInvitations(fixture)).toHaveLength(2);

    // An expired invitation no longer holds a place.
    await expireInvitation(last.id);
    expect(
      (await invitations(fixture).create(fixture.owner.accessToken, { email: uniqueEmail(), role: 'member' }))
        .status,
    ).toBe(201);
  });

  it('lets only one of two concurrent invitations for the last place through', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await addFillerMembers(fixture, 45);
    const responses = await Promise.all(
      [fixture.owner, fixture.admin].map((inviter) =>
        invitations(fixture).create(inviter.accessToken, { email: uniqueEmail(), role: 'member' }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const refused = responses.find((response) => response.status === 409);
    if (refused) expectProblem(refused, 409, 'limit_reached');
    expect(await storedInvitations(fixture)).toHaveLength(1);
  });

  it('allows 20 invitations per person an hour, in all workspaces; then 429 with Retry-After', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const other = await createWorkspaceWithRoles(api.db);
    await asService(api.db, (sql) =>
      sql.query(
        `insert into public.invitations (workspace_id, email, role, token_hash, invited_by, status, created_at)
         select $1, 'old-' || n || '@example.com', 'member', sha256(gen_random_uuid()::text::bytea), $2,
           'revoked', now() - make_interval(mins => case when n = 1 then 50 when n = 20 then 61 else 5 end)
         from generate_series(1, 20) n`,
        [other.id, fixture.owner.id],
      ),
    );
    expect(
      (await invitations(fixture).create(fixture.owner.accessToken, { email: uniqueEmail(), role: 'member' }))
        .status,
    ).toBe(201);
    const refused = await invitations(fixture).create(fixture.owner.accessToken, {
      email: uniqueEmail(),
      role: 'member',
    });
    const problem = expectProblem(refused, 429, 'rate_limited');
    expect(problem.detail).toMatch(/20 invitations in the last hour.*sensitive_creations_per_hour/);
    // The oldest invitation in the window, 50 minutes ago, leaves it in 10 minutes.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await storedInvitations(fixture)).toHaveLength(1);
    // Someone else in the same workspace still may.
    expect(
      (await invitations(fixture).create(fixture.admin.accessToken, { email: uniqueEmail(), role: 'member' }))
        .status,
    ).toBe(201);
  });

  it('still creates the invitation when the mail cannot be sent, and logs why without the link', async () => {
    const failing: Mailer = { send: () => Promise.reject(new Error('relay down')) };
    const app = createTestApp(api.databaseUrl, { mailer: failing });
    try {
      const fixture = await createWorkspaceWithRoles(app.db);
      const response = await invitationCalls(app.app, fixture).create(fixture.owner.accessToken, {
        email: uniqueEmail(),
        role: 'member',
      });
      expect(response.status).toBe(201);
      const invitation = response.body;
      expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending' });
      const warning = app.logs.entries.find((entry) => entry.msg === 'invitation mail not sent');
      expect(warning).toMatchObject({
        level: 'warn',
        invitation_id: invitation.id,
        error_message: 'relay down',
      });
      expect(JSON.stringify(app.logs.entries)).not.toContain(tokenOf(invitation));
    } finally {
      await app.close();
    }
  });

  it('never writes the token to the log, on creating nor on accepting', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    await acceptInvitation(invitee.accessToken, tokenOf(invitation));
    await acceptInvitation(invitee.accessToken, tokenOf(invitation));
    const logged = JSON.stringify(api.logs.entries);
    expect(logged).toContain('/api/v1/invitations/{token}/accept');
    expect(logged).not.toContain(tokenOf(invitation));
  });

  it('keeps the link out of the Idempotency-Key record: a retry is 409 invitation_exists', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const body: InvitationBody = { email: uniqueEmail(), role: 'member' };
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await invitations(fixture).create(fixture.owner.accessToken, body, headers);
    expect(first.status).toBe(201);
    expectProblem(
      await invitations(fixture).create(fixture.owner.accessToken, body, headers),
      409,
      'invitation_exists',
    );
    const token = tokenOf(first.body);
    const [stored] = await asService(api.db, (sql) =>
      sql.query<{ n: number }>(
        `select count(*)::integer as n from public.idempotency_keys where response::text like '%' || $1 || '%'`,
        [token],
      ),
    );
    expect(stored?.n).toBe(0);
  });

  it('refuses a read token with 403 insufficient_scope', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const reader = await createApiTokenFor(api.app, fixture.owner, 'read');
    expectProblem(
      await invitations(fixture).create(reader, { email: uniqueEmail(), role: 'member' }),
      403,
      'insufficient_scope',
    );
    expect(await storedInvitations(fixture)).toEqual([]);
  });
});

describe('GET /api/v1/workspaces/{slug}/invitations', () => {
  it('lists every invitation to an admin, oldest first, without tokens, and filters by status', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const pending = await invite(fixture);
    const revoked = await invite(fixture);
    await invitations(fixture).remove(fixture.owner.accessToken, revoked.id);
    const expired = await invite(fixture);
    await expireInvitation(expired.id);
    const { invitee, invitation: accepted } = await inviteNewPerson(fixture);
    await acceptInvitation(invitee.accessToken, tokenOf(accepted));

    const response = await invitations(fixture).list(fixture.admin.accessToken);
    expect(response.status).toBe(200);
    const list = response.body;
    expect(list.data.map(({ id, status }) => [id, status])).toEqual([
      [pending.id, 'pending'],
      [revoked.id, 'revoked'],
      [expired.id, 'expired'],
      [accepted.id, 'accepted'],
    ]);
    const { accept_url: _link, ...withoutLink } = pending;
    expect(list.data[0]).toEqual(withoutLink);
    for (const token of [pending, revoked, expired, accepted].map(tokenOf)) {
      expect(response.text).not.toContain(token);
    }

    for (const [status, id] of [
      ['pending', pending.id],
      ['revoked', revoked.id],
      ['expired', expired.id],
      ['accepted', accepted.id],
    ]) {
      const filtered = (await invitations(fixture).list(fixture.owner.accessToken, `?status=${status}`)).body;
      expect(filtered.data.map((invitation) => invitation.id)).toEqual([id]);
    }
  });

  it('pages with limit and cursor', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const ids = [(await invite(fixture)).id, (await invite(fixture)).id, (await invite(fixture)).id];
    const first = await invitations(fixture).list(fixture.owner.accessToken, '?limit=2');
    const page = first.body;
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = (
      await invitations(fixture).list(fixture.owner.accessToken, `?limit=2&cursor=${page.next_cursor ?? ''}`)
    ).body;
    expect([...page.data, ...second.data].map((invitation) => invitation.id).sort()).toEqual(ids.sort());
    expect(second.next_cursor).toBeNull();
  });

  it('answers 400 to an unknown status', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(
      await invitations(fixture).list(fixture.owner.accessToken, '?status=lost'),
      400,
      'bad_request',
    );
  });

  it.each(['member', 'viewer'] as const)('refuses a %s with 403', async (role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await invite(fixture);
    expectProblem(await invitations(fixture).list(fixture[role].accessToken), 403, 'forbidden');
  });

  it('answers 404 to an outsider', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    expectProblem(await invitations(fixture).list(fixture.outsider.accessToken), 404, 'not_found');
  });
});

describe('GET /api/v1/workspaces/{slug}/invitations/{id}', () => {
  it('answers the invitation without its link, with its ETag, and 304 while it is unchanged', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const invitation = await invite(fixture);
    const response = await invitations(fixture).get(fixture.admin.accessToken, invitation.id);
    expect(response.status).toBe(200);
    const { accept_url: link, ...withoutLink } = invitation;
    expect(response.body).toEqual(withoutLink);
    expect(response.text).not.toContain(tokenOf(invitation));
    expect(link).toMatch(ACCEPT_URL);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(
      (await invitations(fixture).get(fixture.admin.accessToken, invitation.id, { 'If-None-Match': '"1"' }))
        .status,
    ).toBe(304);
  });

  it("answers 404 to another workspace's invitation, an unknown id and one that is not a UUID", async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const other = await createWorkspaceWithRoles(api.db);
    const theirs = await invite(other);
    for (const id of [theirs.id, randomUUID(), 'nope']) {
      expectProblem(await invitations(fixture).get(fixture.owner.accessToken, id), 404, 'not_found');
    }
  });

  it('refuses a member with 403, and answers 404 to an outsider', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const invitation = await invite(fixture);
    expectProblem(
      await invitations(fixture).get(fixture.member.accessToken, invitation.id),
      403,
      'forbidden',
    );
    expectProblem(
      await invitations(fixture).get(fixture.outsider.accessToken, invitation.id),
      404,
      'not_found',
    );
  });
});

describe('DELETE /api/v1/workspaces/{slug}/invitations/{id}', () => {
  it('revokes a pending invitation: its link is 410 invitation_revoked from then on', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    const response = await invitations(fixture).remove(fixture.admin.accessToken, invitation.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: invitation.id, status: 'revoked', version: 2 });
    expect(response.headers.get('etag')).toBe('"2"');
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'revoked', version: 2 });

    expectProblem(
      await acceptInvitation(invitee.accessToken, tokenOf(invitation)),
      410,
      'invitation_revoked',
    );
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
  });

  it('answers an invitation that is no longer pending as it is, revoked twice or accepted', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const revoked = await invite(fixture);
    const first = await invitations(fixture).remove(fixture.owner.accessToken, revoked.id);
    const again = await invitations(fixture).remove(fixture.owner.accessToken, revoked.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const { invitee, invitation } = await inviteNewPerson(fixture);
    await acceptInvitation(invitee.accessToken, tokenOf(invitation));
    const accepted = await invitations(fixture).remove(fixture.owner.accessToken, invitation.id);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', accepted_by: invitee.id, version: 2 });
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'accepted', version: 2 });
    expect(await rolesIn(fixture)).toHaveProperty(invitee.id, 'member');
  });

  it('revokes only the version If-Match names', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const invitation = await invite(fixture);
    const problem = expectProblem(
      await invitations(fixture).remove(fixture.owner.accessToken, invitation.id, { 'If-Match': '"3"' }),
      412,
      'precondition_failed',
    );
    expect(problem.current_version).toBe(1);
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });
    expect(
      (await invitations(fixture).remove(fixture.owner.accessToken, invitation.id, { 'If-Match': '"1"' }))
        .status,
    ).toBe(200);
  });

  it.each(['member', 'viewer'] as const)('refuses a %s with 403, and revokes nothing', async (role) => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const invitation = await invite(fixture);
    expectProblem(
      await invitations(fixture).remove(fixture[role].accessToken, invitation.id),
      403,
      'forbidden',
    );
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });
  });

  it("answers 404 to another workspace's invitation and to an outsider, and revokes nothing", async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const other = await createWorkspaceWithRoles(api.db);
    const theirs = await invite(other);
    expectProblem(await invitations(fixture).remove(fixture.owner.accessToken, theirs.id), 404, 'not_found');
    expectProblem(
      await invitations(fixture).remove(fixture.owner.accessToken, 'not-a-uuid'),
      404,
      'not_found',
    );
    const mine = await invite(fixture);
    expectProblem(await invitations(fixture).remove(fixture.outsider.accessToken, mine.id), 404, 'not_found');
    expect(await storedInvitation(theirs.id)).toMatchObject({ status: 'pending' });
    expect(await storedInvitation(mine.id)).toMatchObject({ status: 'pending' });
  });
});

/** Three invitations of `fixture` that can no longer be accepted: one used, one revoked, one expired. */
async function deadInvitations(fixture: WorkspaceFixture) {
  const accepted = await inviteNewPerson(fixture);
  expect((await acceptInvitation(accepted.invitee.accessToken, tokenOf(accepted.invitation))).status).toBe(
    200,
  );
  const revoked = await inviteNewPerson(fixture);
  expect((await invitations(fixture).remove(fixture.owner.accessToken, revoked.invitation.id)).status).toBe(
    200,
  );
  const expired = await inviteNewPerson(fixture);
  await expireInvitation(expired.invitation.id);
  return { accepted, revoked, expired };
}

describe('GET /api/v1/invitations/{token}', () => {
  it('never writes the token to the log', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    expect((await previewInvitation(invitee.accessToken, tokenOf(invitation))).status).toBe(200);
    const logged = JSON.stringify(api.logs.entries);
    expect(logged).toContain('/api/v1/invitations/{token}"');
    expect(logged).not.toContain(tokenOf(invitation));
  });

  it('shows the invited person the workspace, the role and who invited them, and changes nothing', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture, 'admin');
    const response = await previewInvitation(invitee.accessToken, tokenOf(invitation));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'invitation_preview',
      workspace: { slug: fixture.slug, name: expect.any(String), require_mfa: false },
      email: invitation.email,
      role: 'admin',
      status: 'pending',
      invited_by: { display_name: 'owner' },
      expires_at: invitation.expires_at,
      for_caller: true,
      caller_is_member: false,
    });
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });
  });

  it('tells someone else that it is not for them, and a member that they are one', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitation } = await inviteNewPerson(fixture);
    expect((await previewInvitation(fixture.outsider.accessToken, tokenOf(invitation))).body).toMatchObject({
      status: 'pending',
      for_caller: false,
      caller_is_member: false,
    });
    expect((await previewInvitation(fixture.viewer.accessToken, tokenOf(invitation))).body).toMatchObject({
      for_caller: false,
      caller_is_member: true,
    });
  });

  it('shows the invited address to the invited person alone, and to nobody once the link is used', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    const token = tokenOf(invitation);
    for (const someoneElse of [fixture.outsider, fixture.viewer, fixture.owner]) {
      const preview = await previewInvitation(someoneElse.accessToken, token);
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({ status: 'pending', for_caller: false, email: null });
      expect(JSON.stringify(preview.body)).not.toContain(invitation.email);
    }
    expect((await previewInvitation(invitee.accessToken, token)).body).toMatchObject({
      email: invitation.email,
      for_caller: true,
    });
    expect((await acceptInvitation(invitee.accessToken, token)).status).toBe(200);
    for (const holder of [invitee, fixture.outsider]) {
      const used = await previewInvitation(holder.accessToken, token);
      expect(used.body).toMatchObject({ status: 'accepted', email: null });
      expect(JSON.stringify(used.body)).not.toContain(invitation.email);
    }
  });

  it('reads accepted, revoked (also when the inviter lost the right) and expired as accepting would', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { accepted, revoked, expired } = await deadInvitations(fixture);
    const byAdmin = await invite(fixture, { email: uniqueEmail(), role: 'member' }, fixture.admin);
    await asService(api.db, (sql) =>
      sql.query(`update public.invitations set invited_by = $2 where id = $1`, [
        byAdmin.id,
        fixture.viewer.id,
      ]),
    );
    const statusOf = async (invitee: TestUser, invitation: NewInvitation) =>
      (await previewInvitation(invitee.accessToken, tokenOf(invitation))).body;
    expect(await statusOf(accepted.invitee, accepted.invitation)).toMatchObject({
      status: 'accepted',
      caller_is_member: true,
    });
    expect(await statusOf(revoked.invitee, revoked.invitation)).toMatchObject({ status: 'revoked' });
    expect(await statusOf(expired.invitee, expired.invitation)).toMatchObject({ status: 'expired' });
    expect(await statusOf(fixture.outsider, byAdmin)).toMatchObject({ status: 'revoked' });
  });

  it('answers 404 to an unknown token and to one that cannot be a token, signed in or out', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    for (const bearer of [fixture.outsider.accessToken, undefined]) {
      expectProblem(await previewInvitation(bearer, 'A'.repeat(43)), 404, 'not_found');
      expectProblem(await previewInvitation(bearer, 'short'), 404, 'not_found');
    }
  });

  it('shows someone signed out the workspace, the role and who invited them, but no address', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitation } = await inviteNewPerson(fixture, 'admin');
    const response = await previewInvitation(undefined, tokenOf(invitation));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'invitation_preview',
      workspace: { slug: fixture.slug, name: expect.any(String), require_mfa: false },
      email: null,
      role: 'admin',
      status: 'pending',
      invited_by: { display_name: 'owner' },
      expires_at: invitation.expires_at,
      for_caller: false,
      caller_is_member: false,
    });
    expect(JSON.stringify(response.body)).not.toContain(invitation.email);
    // Counted against the client's address, as every request without credentials is.
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"ip";/);
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });
  });

  it('tells someone signed out the state of a used, revoked or expired link, and no address', async () => {
    const { accepted, revoked, expired } = await deadInvitations(await createWorkspaceWithRoles(api.db));
    for (const [{ invitation }, status] of [
      [accepted, 'accepted'],
      [revoked, 'revoked'],
      [expired, 'expired'],
    ] as const) {
      const preview = await previewInvitation(undefined, tokenOf(invitation));
      expect(preview.body).toMatchObject({ status, email: null, caller_is_member: false });
      expect(JSON.stringify(preview.body)).not.toContain(invitation.email);
    }
  });

  it('refuses a bad credential with 401 instead of answering as if signed out', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitation } = await inviteNewPerson(fixture);
    expect((await previewInvitation('', tokenOf(invitation))).status).toBe(401);
    expect((await previewInvitation('not-a-token', tokenOf(invitation))).status).toBe(401);
  });
});

describe('POST /api/v1/invitations/{token}/accept', () => {
  it('makes the invited person a member with the role, whatever the case of the address', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture, 'admin');
    const response = await acceptInvitation(invitee.accessToken, tokenOf(invitation));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'workspace',
      id: fixture.id,
      slug: fixture.slug,
      role: 'admin',
    });
    expect(await rolesIn(fixture)).toHaveProperty(invitee.id, 'admin');
    expect(await storedInvitation(invitation.id)).toMatchObject({
      status: 'accepted',
      accepted_by: invitee.id,
      version: 2,
    });
    const members = await memberCalls(api.app, fixture).get(invitee.accessToken, invitee.id);
    expect(members.body).toMatchObject({ role: 'admin', display_name: 'Grace' });
  });

  it('answers 404 to an invitation already accepted: it is used up', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    expect((await acceptInvitation(invitee.accessToken, tokenOf(invitation))).status).toBe(200);
    expectProblem(await acceptInvitation(invitee.accessToken, tokenOf(invitation)), 404, 'not_found');
  });

  it('refuses someone whose e-mail is not the invited one with 403, and changes nothing', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitation } = await inviteNewPerson(fixture);
    const problem = expectProblem(
      await acceptInvitation(fixture.outsider.accessToken, tokenOf(invitation)),
      403,
      'forbidden',
    );
    expect(problem.detail).toBe(
      'This invitation is for another e-mail address. Sign in as the invited person to accept it.',
    );
    expect(await rolesIn(fixture)).not.toHaveProperty(fixture.outsider.id);
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });
  });

  it('answers 410 invitation_expired after 7 days, and changes nothing', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    await expireInvitation(invitation.id);
    expectProblem(
      await acceptInvitation(invitee.accessToken, tokenOf(invitation)),
      410,
      'invitation_expired',
    );
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
  });

  it('answers 409 already_member to a member, and leaves the invitation pending', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    await asService(api.db, (sql) =>
      sql.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'viewer')`, [
        fixture.id,
        invitee.id,
      ]),
    );
    expectProblem(await acceptInvitation(invitee.accessToken, tokenOf(invitation)), 409, 'already_member');
    expect(await rolesIn(fixture)).toHaveProperty(invitee.id, 'viewer');
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending' });
  });

  it.each([
    ['a token nobody was given', () => 'A'.repeat(43)],
    ['a token of the wrong shape', () => 'short'],
    ['a token with characters base64url does not use', () => `${'A'.repeat(42)}.`],
  ])('answers 404 to %s', async (_name, token) => {
    const user = await createTestUser(api.db);
    expectProblem(await acceptInvitation(user.accessToken, token()), 404, 'not_found');
  });

  it('refuses aal1 into a workspace that requires MFA, changing nothing, and admits aal2', async () => {
    const fixture = await createWorkspaceWithRoles(api.db, { requireMfa: true });
    const email = uniqueEmail('grace');
    const invitee = await createTestUser(api.db, { email });
    const created = await invitations(fixture).create(await aal2AccessTokenOf(fixture.owner), {
      email,
      role: 'member',
    });
    const invitation = created.body;

    expectProblem(await acceptInvitation(invitee.accessToken, tokenOf(invitation)), 403, 'mfa_required');
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });

    const response = await acceptInvitation(await aal2AccessTokenOf(invitee), tokenOf(invitation));
    expect(response.status).toBe(200);
    expect(await rolesIn(fixture)).toHaveProperty(invitee.id, 'member');
  });

  it('refuses a read token with 403 insufficient_scope, and takes a write token', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    const reader = await createApiTokenFor(api.app, invitee, 'read');
    expectProblem(await acceptInvitation(reader, tokenOf(invitation)), 403, 'insufficient_scope');
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
    const writer = await createApiTokenFor(api.app, invitee, 'write');
    expect((await acceptInvitation(writer, tokenOf(invitation))).status).toBe(200);
  });

  it('replays the answer for an Idempotency-Key', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await acceptInvitation(invitee.accessToken, tokenOf(invitation), headers);
    const second = await acceptInvitation(invitee.accessToken, tokenOf(invitation), headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});

describe("invitations and their inviter's authority (the first security review, item 4)", () => {
  const removeMember = (bearer: string, fixture: WorkspaceFixture, userId: string) =>
    memberCalls(api.app, fixture).remove(bearer, userId);
  const changeRole = (bearer: string, fixture: WorkspaceFixture, userId: string, role: WorkspaceRole) =>
    memberCalls(api.app, fixture).update(bearer, userId, { role });

  it('revokes a removed admin’s pending invitations: the one to their own other address is 410', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const alternative = uniqueEmail('alt');
    const alt = await createTestUser(api.db, { email: alternative });
    const theirs = await invite(fixture, { email: alternative, role: 'admin' }, fixture.admin);
    const owners = await invite(fixture);
    expect((await removeMember(fixture.owner.accessToken, fixture, fixture.admin.id)).status).toBe(204);

    expectProblem(await acceptInvitation(alt.accessToken, tokenOf(theirs)), 410, 'invitation_revoked');
    expect(await rolesIn(fixture)).not.toHaveProperty(alt.id);
    expect(await storedInvitation(theirs.id)).toMatchObject({ status: 'revoked' });
    expect(await storedInvitation(owners.id)).toMatchObject({ status: 'pending' });
    const listed = (await invitations(fixture).get(fixture.owner.accessToken, theirs.id)).body;
    expect(listed.status).toBe('revoked');
  });

  it('revokes a demoted owner’s owner invitations, and an admin’s once they are a member', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    await asService(api.db, (sql) =>
      sql.query(`update public.memberships set role = 'owner' where workspace_id = $1 and user_id = $2`, [
        fixture.id,
        fixture.admin.id,
      ]),
    );
    const asOwner = await invite(fixture, { email: uniqueEmail(), role: 'owner' }, fixture.admin);
    const asAdmin = await invite(fixture, { email: uniqueEmail(), role: 'admin' }, fixture.admin);
    expect((await changeRole(fixture.owner.accessToken, fixture, fixture.admin.id, 'admin')).status).toBe(
      200,
    );
    expect([
      (await storedInvitation(asOwner.id))?.status,
      (await storedInvitation(asAdmin.id))?.status,
    ]).toEqual(['revoked', 'pending']);
    expect((await changeRole(fixture.owner.accessToken, fixture, fixture.admin.id, 'member')).status).toBe(
      200,
    );
    expect((await storedInvitation(asAdmin.id))?.status).toBe('revoked');
  });

  it('answers 410 to an invitation whose inviter lost the right without a revocation (re-checked on accept)', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture, 'admin');
    // As if the inviter had been demoted before revocation existed: the role changes, no trigger runs.
    await asService(api.db, async (sql) => {
      await sql.query('set local session_replication_role = replica');
      await sql.query(
        `update public.memberships set role = 'member' where workspace_id = $1 and user_id = $2`,
        [fixture.id, fixture.owner.id],
      );
    });
    expectProblem(
      await acceptInvitation(invitee.accessToken, tokenOf(invitation)),
      410,
      'invitation_revoked',
    );
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
  });
});

describe('the address an invitation is bound to (the first security review, item 11)', () => {
  it('refuses an unconfirmed address with 403 email_not_confirmed, and admits it once confirmed', async () => {
    const fixture = await createWorkspaceWithRoles(api.db);
    const { invitee, invitation } = await inviteNewPerson(fixture);
    const confirm = (at: string | null) =>
      asService(api.db, (sql) =>
        sql.query('update auth.users set email_confirmed_at = $2 where id = $1', [invitee.id, at]),
      );
    await confirm(null);
    const problem = expectProblem(
      await acceptInvitation(invitee.accessToken, tokenOf(invitation)),
      403,
      'email_not_confirmed',
    );
    expect(problem.detail).toMatch(/Confirm your e-mail address/);
    expect(await rolesIn(fixture)).not.toHaveProperty(invitee.id);
    expect(await storedInvitation(invitation.id)).toMatchObject({ status: 'pending', version: 1 });
    await confirm(new Date().toISOString());
    expect((await acceptInvitation(invitee.accessToken, tokenOf(invitation))).status).toBe(200);
  });

  it('invites one address at most 5 times in 24 hours, from all workspaces; then 429 with Retry-After', async () => {
    const email = uniqueEmail('stranger');
    const fixtures = await Promise.all(Array.from({ length: 6 }, () => createWorkspaceWithRoles(api.db)));
    for (const fixture of fixtures.slice(0, 5)) await invite(fixture, { email, role: 'viewer' });
    const last = fixtures[5];
    if (!last) throw new Error('no fixture');
    const refused = await invitations(last).create(last.owner.accessToken, {
      email: email.toUpperCase(),
      role: 'member',
    });
    const problem = expectProblem(refused, 429, 'rate_limited');
    expect(problem.detail).toMatch(/5 invitations in the last 24 hours.*invitations_per_recipient_per_day/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(24 * 60 * 60 - 120);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect(await storedInvitations(last)).toEqual([]);
    expect(sentTo(email)).toHaveLength(5);
    // Another address is not held back.
    expect(
      (await invitations(last).create(last.owner.accessToken, { email: uniqueEmail(), role: 'member' }))
        .status,
    ).toBe(201);
  });
});
