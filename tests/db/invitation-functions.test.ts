/**
 * The SQL behind members and invitations (…_create_workspaces.sql, …_create_invitations.sql): members'
 * e-mail addresses only for fellow members, private.create_invitation's rules and the mail it queues
 * (private.enqueue_invitation_mail), each run as the calling user, as the API runs them.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { MEMBERS_PER_WORKSPACE } from '../../supabase/functions/_shared/limits.ts';
import { useSqlAsUser } from '../support/sql-as-user.ts';

type Role = 'owner' | 'admin' | 'member' | 'viewer';

describe('private.member_emails and private.create_invitation', () => {
  const sqlTest = useSqlAsUser('invitations.test');
  const { newUser, asUser } = sqlTest;

  /** A workspace with a user in each role; its id and the users. */
  async function newWorkspace(): Promise<{ id: string } & Record<Role, string>> {
    const users = {
      owner: await newUser(),
      admin: await newUser(),
      member: await newUser(),
      viewer: await newUser(),
    };
    const { rows } = await sqlTest.db.query<{ id: string }>(
      `insert into public.workspaces (name, slug, created_by) values ('Functions', $1, $2) returning id`,
      [`fn-${randomUUID().slice(0, 8)}`, users.owner],
    );
    const id = rows[0]?.id ?? '';
    for (const [role, userId] of Object.entries(users)) {
      await sqlTest.db.query(
        'insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)',
        [id, userId, role],
      );
    }
    return { id, ...users };
  }

  const invite = (userId: string, workspaceId: string, email: string, role: Role = 'member') =>
    asUser<{ email: string; role: Role; status: string; invited_by: string }>(
      userId,
      `select email, role, status, invited_by
       from private.create_invitation($1, $2, $3, sha256(gen_random_uuid()::text::bytea))`,
      [workspaceId, email, role],
    );

  const pendingFor = async (workspaceId: string, email: string) =>
    (
      await sqlTest.db.query<{ status: string }>(
        `select status from public.invitations where workspace_id = $1 and lower(email) = lower($2)
         order by created_at`,
        [workspaceId, email],
      )
    ).rows.map((row) => row.status);

  test("answers the members' addresses to a member, and nothing to anyone else", async () => {
    const workspace = await newWorkspace();
    const outsider = await newUser();
    const asMember = await asUser<{ user_id: string }>(
      workspace.viewer,
      'select user_id from private.member_emails($1)',
      [workspace.id],
    );
    expect('rows' in asMember && asMember.rows.map((row) => row.user_id).sort()).toEqual(
      [workspace.owner, workspace.admin, workspace.member, workspace.viewer].sort(),
    );
    expect(await asUser(outsider, 'select * from private.member_emails($1)', [workspace.id])).toEqual({
      rows: [],
    });
  });

  test('lets owners invite any role and admins any but owner; members and viewers none', async () => {
    const workspace = await newWorkspace();
    const outsider = await newUser();
    expect(await invite(workspace.owner, workspace.id, 'new-owner@invitations.test', 'owner')).toMatchObject({
      rows: [{ role: 'owner', status: 'pending', invited_by: workspace.owner }],
    });
    expect(await invite(workspace.admin, workspace.id, 'new-admin@invitations.test', 'admin')).toHaveProperty(
      'rows',
    );
    expect(await invite(workspace.admin, workspace.id, 'owner2@invitations.test', 'owner')).toEqual({
      refused: 'forbidden',
    });
    expect(await invite(workspace.member, workspace.id, 'm@invitations.test')).toEqual({
      refused: 'forbidden',
    });
    expect(await invite(workspace.viewer, workspace.id, 'v@invitations.test')).toEqual({
      refused: 'forbidden',
    });
    expect(await invite(outsider, workspace.id, 'o@invitations.test')).toEqual({ refused: 'not_found' });
    expect(await pendingFor(workspace.id, 'owner2@invitations.test')).toEqual([]);
  });

  test("refuses a member's address and a second pending invitation, whatever the case", async () => {
    const workspace = await newWorkspace();
    const memberEmail = (
      await sqlTest.db.query<{ email: string }>('select email from auth.users where id = $1', [
        workspace.member,
      ])
    ).rows[0]?.email;
    expect(await invite(workspace.owner, workspace.id, ` ${memberEmail?.toUpperCase() ?? ''} `)).toEqual({
      refused: 'already_member',
    });
    expect(await invite(workspace.owner, workspace.id, 'Twice@Invitations.test')).toHaveProperty('rows');
    expect(await invite(workspace.admin, workspace.id, 'twice@invitations.TEST')).toEqual({
      refused: 'invitation_exists',
    });
    expect(await pendingFor(workspace.id, 'twice@invitations.test')).toEqual(['pending']);
  });

  test('retires an expired invitation for the address as expired, then invites it again', async () => {
    const workspace = await newWorkspace();
    expect(await invite(workspace.owner, workspace.id, 'late@invitations.test')).toHaveProperty('rows');
    await sqlTest.db.query(
      `update public.invitations set expires_at = now() - interval '1 minute'
       where workspace_id = $1 and email = 'late@invitations.test'`,
      [workspace.id],
    );
    expect(await invite(workspace.owner, workspace.id, 'late@invitations.test')).toHaveProperty('rows');
    expect(await pendingFor(workspace.id, 'late@invitations.test')).toEqual(['expired', 'pending']);
  });

  test('counts members and unexpired pending invitations against the limit', async () => {
    const workspace = await newWorkspace();
    // 4 members + 44 more = 48, + 1 pending = 49; an expired or revoked invitation does not count.
    await sqlTest.db.query(
      `with filler as (
         insert into auth.users (id, email, aud, role, created_at, updated_at)
         select gen_random_uuid(), 'filler-' || gen_random_uuid() || '@invitations.test', 'authenticated',
           'authenticated', now(), now()
         from generate_series(1, $2 - 6)
         returning id
       )
       insert into public.memberships (workspace_id, user_id, role) select $1, id, 'member' from filler`,
      [workspace.id, MEMBERS_PER_WORKSPACE],
    );
    expect(await invite(workspace.owner, workspace.id, 'one@invitations.test')).toHaveProperty('rows');
    expect(await invite(workspace.owner, workspace.id, 'gone@invitations.test')).toHaveProperty('rows');
    await sqlTest.db.query(
      `update public.invitations set status = 'revoked' where email = 'gone@invitations.test'`,
    );
    expect(await invite(workspace.owner, workspace.id, 'two@invitations.test')).toHaveProperty('rows');
    expect(await invite(workspace.owner, workspace.id, 'three@invitations.test')).toEqual({
      refused: 'limit_reached',
    });
  });

  test("queues an invitation's mail claimed by the request that queues it: due for others only later", async () => {
    const workspace = await newWorkspace();
    const queued = await asUser<{ id: string }>(
      workspace.admin,
      `with i as (
         select * from private.create_invitation($1, $2, 'member', sha256(gen_random_uuid()::text::bytea))
       )
       select private.enqueue_invitation_mail(i.id, '{"subject": "s", "text": "t", "html": "h"}') as id from i`,
      [workspace.id, `queued-${randomUUID()}@example.com`],
    );
    if (!('rows' in queued)) throw new Error(`refused: ${queued.refused}`);
    const { rows } = await sqlTest.db.query(
      `select attempts, next_attempt_at > now() + interval '50 seconds' as later, sent_at
       from private.mail_outbox where id = $1`,
      [queued.rows[0]?.id],
    );
    expect(rows).toEqual([{ attempts: 1, later: true, sent_at: null }]);
  });

  test("counts the caller's own recent invitations, in every workspace", async () => {
    const first = await newWorkspace();
    const second = await newWorkspace();
    await sqlTest.db.query(
      'insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)',
      [second.id, first.owner, 'admin'],
    );
    await invite(first.owner, first.id, 'a@invitations.test');
    await invite(first.owner, second.id, 'b@invitations.test');
    await invite(first.admin, first.id, 'c@invitations.test');
    await sqlTest.db.query(
      `update public.invitations set created_at = now() - interval '2 hours' where email = 'a@invitations.test'`,
    );
    const recent = await asUser<{ count: number; retry_after_seconds: number }>(
      first.owner,
      'select * from private.own_recent_invitations(3600)',
      [],
    );
    expect(recent).toEqual({ rows: [{ count: 1, retry_after_seconds: expect.any(Number) }] });
  });
});
