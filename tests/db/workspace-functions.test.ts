/**
 * The workspace operations that span rows and so live in SQL: creating a workspace with its owner, and
 * accepting an invitation. Each runs as the calling user, as the API runs them.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { WORKSPACES_PER_USER } from '../../supabase/functions/_shared/limits.ts';
import { useSqlAsUser } from '../support/sql-as-user.ts';

describe('private.create_workspace, private.accept_invitation and private.join_by_invitation', () => {
  const sqlTest = useSqlAsUser('functions.test');
  const { newUser, asUser } = sqlTest;

  const createWorkspace = (userId: string, slug: string) =>
    asUser<{ id: string; name: string; created_by: string; version: number }>(
      userId,
      'select id, name, created_by, version from private.create_workspace($1, $2)',
      [`  ${slug} team `, slug],
    );

  test('creates the workspace, trims its name and makes the caller its owner', async () => {
    const owner = await newUser();
    const created = await createWorkspace(owner, 'fn-acme');
    if (!('rows' in created)) throw new Error(`refused: ${created.refused}`);
    const [workspace] = created.rows;
    expect(workspace).toMatchObject({ name: 'fn-acme team', created_by: owner, version: 1 });
    const membership = await sqlTest.db.query('select role from public.memberships where workspace_id = $1', [
      workspace?.id,
    ]);
    expect(membership.rows).toEqual([{ role: 'owner' }]);
  });

  test('refuses a creation over the limit, with the limit_reached code', async () => {
    const owner = await newUser();
    for (let n = 1; n <= WORKSPACES_PER_USER; n++) {
      expect(await createWorkspace(owner, `fn-limit-${n}`)).toHaveProperty('rows');
    }
    expect(await createWorkspace(owner, 'fn-limit-over')).toEqual({ refused: 'limit_reached' });
    const count = await sqlTest.db.query(
      'select count(*)::int as n from public.workspaces where created_by = $1',
      [owner],
    );
    expect(count.rows[0]).toEqual({ n: WORKSPACES_PER_USER });
  });

  test('a workspace keeps its last owner', async () => {
    const owner = await newUser();
    const created = await createWorkspace(owner, 'fn-keep');
    if (!('rows' in created)) throw new Error('not created');
    const workspaceId = created.rows[0]?.id;
    const leave = await asUser(
      owner,
      'delete from public.memberships where workspace_id = $1 and user_id = $2',
      [workspaceId, owner],
    );
    expect(leave).toEqual({ refused: 'last_owner' });
  });

  describe('accepting an invitation', () => {
    let workspaceId: string;
    let owner: string;

    beforeAll(async () => {
      owner = await newUser();
      const created = await createWorkspace(owner, 'fn-invites');
      if (!('rows' in created) || !created.rows[0]) throw new Error('not created');
      workspaceId = created.rows[0].id;
    });

    async function invite(
      email: string,
      token: string,
      overrides: { status?: string; expired?: boolean } = {},
    ) {
      await sqlTest.db.query(
        `insert into public.invitations (workspace_id, email, role, token_hash, invited_by, status, expires_at)
         values ($1, $2, 'member', sha256($3::bytea), $4, $5, now() + $6::interval)`,
        [
          workspaceId,
          email,
          token,
          owner,
          overrides.status ?? 'pending',
          overrides.expired ? '-1 hour' : '7 days',
        ],
      );
    }

    const accept = (userId: string, token: string) =>
      asUser<{ role: string }>(userId, 'select role from private.accept_invitation(sha256($1::bytea))', [
        token,
      ]);

    test('adds the invitee, whatever the case of the address, and marks the invitation accepted', async () => {
      const invitee = await newUser('Invitee@Functions.test');
      await invite('invitee@functions.test', 'accept-me');
      expect(await accept(invitee, 'accept-me')).toEqual({ rows: [{ role: 'member' }] });
      const invitation = await sqlTest.db.query(
        `select status, accepted_by from public.invitations where token_hash = sha256('accept-me'::bytea)`,
      );
      expect(invitation.rows).toEqual([{ status: 'accepted', accepted_by: invitee }]);
      expect(await accept(invitee, 'accept-me')).toEqual({ refused: 'not_found' });
    });

    test.each([
      ['an unknown token', 'never-issued', {}, 'not_found'],
      ['a revoked invitation', 'revoked', { status: 'revoked' }, 'invitation_revoked'],
      ['an expired invitation', 'expired', { expired: true }, 'invitation_expired'],
    ] as const)('refuses %s', async (_, token, overrides, code) => {
      const invitee = await newUser();
      const email = (
        await sqlTest.db.query<{ email: string }>('select email from auth.users where id = $1', [invitee])
      ).rows[0]?.email;
      if (token !== 'never-issued' && email) await invite(email, token, overrides);
      expect(await accept(invitee, token)).toEqual({ refused: code });
    });

    test('private.join_by_invitation accepts and answers the workspace joined, with the role it gives', async () => {
      const invitee = await newUser();
      const email = (
        await sqlTest.db.query<{ email: string }>('select email from auth.users where id = $1', [invitee])
      ).rows[0]?.email;
      if (email) await invite(email, 'join-me');
      const join = (token: string) =>
        asUser<{ id: string; slug: string; role: string }>(
          invitee,
          'select id, slug, role from private.join_by_invitation(sha256($1::bytea))',
          [token],
        );
      expect(await join('join-me')).toEqual({
        rows: [{ id: workspaceId, slug: 'fn-invites', role: 'member' }],
      });
      expect(await join('join-me')).toEqual({ refused: 'not_found' });
    });

    test('refuses someone whose e-mail is not the invited one, and someone already a member', async () => {
      const stranger = await newUser();
      await invite('someone-else@functions.test', 'not-yours');
      expect(await accept(stranger, 'not-yours')).toEqual({ refused: 'forbidden' });
      await invite(`owner-again-${randomUUID()}@functions.test`, 'owner-again');
      await sqlTest.db.query(
        `update auth.users set email = i.email from public.invitations i
        where auth.users.id = $1 and i.token_hash = sha256('owner-again'::bytea)`,
        [owner],
      );
      expect(await accept(owner, 'owner-again')).toEqual({ refused: 'already_member' });
    });
  });
});
