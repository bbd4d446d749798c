/**
 * The invitation rules of the first security review (items 4, 5 and 11), held by the database itself: each
 * statement runs straight in SQL as `authenticated`, as a /rest/v1 call or a direct function call would. An
 * invitation dies with its inviter's authority; accepting re-checks the inviter and needs a confirmed
 * address; one address gets at most INVITATIONS_PER_RECIPIENT_PER_DAY invitations a day; an invitation's
 * status only moves from pending to revoked under the API roles; and the limits are the database's, not the
 * caller's.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  INVITATION_LIFETIME_DAYS,
  INVITATIONS_PER_RECIPIENT_PER_DAY,
  MEMBERS_PER_WORKSPACE,
  SENSITIVE_CREATIONS_PER_HOUR,
} from '../../supabase/functions/_shared/limits.ts';
import { useSqlAsUser } from '../support/sql-as-user.ts';

type Role = 'owner' | 'admin' | 'member' | 'viewer';
type Status = 'pending' | 'accepted' | 'revoked' | 'expired';

describe('invitation rules in SQL', () => {
  const sqlTest = useSqlAsUser('invitation-rules.test');
  const { newUser, asUser } = sqlTest;

  /** A workspace with two owners and a user in each other role; its id and the users. */
  async function newWorkspace(): Promise<{ id: string; owner2: string } & Record<Role, string>> {
    const users = {
      owner: await newUser(),
      owner2: await newUser(),
      admin: await newUser(),
      member: await newUser(),
      viewer: await newUser(),
    };
    const { rows } = await sqlTest.db.query<{ id: string }>(
      `insert into public.workspaces (name, slug, created_by) values ('Rules', $1, $2) returning id`,
      [`rules-${randomUUID().slice(0, 8)}`, users.owner],
    );
    const id = rows[0]?.id ?? '';
    for (const [name, userId] of Object.entries(users)) {
      await sqlTest.db.query(
        'insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)',
        [id, userId, name === 'owner2' ? 'owner' : name],
      );
    }
    return { id, ...users };
  }

  const uniqueEmail = () => `invitee-${randomUUID().slice(0, 8)}@invitation-rules.test`;

  /** Invites through private.create_invitation as `userId`; the token is `token`. */
  const invite = (
    userId: string,
    workspaceId: string,
    email: string,
    role: Role,
    token: string = randomUUID(),
  ) =>
    asUser<{ id: string }>(
      userId,
      `select id from private.create_invitation($1, $2, $3, sha256($4::bytea))`,
      [workspaceId, email, role, token],
    );

  const invitedId = async (...args: Parameters<typeof invite>): Promise<string> => {
    const outcome = await invite(...args);
    if (!('rows' in outcome) || !outcome.rows[0]) throw new Error(`not invited: ${JSON.stringify(outcome)}`);
    return outcome.rows[0].id;
  };

  const statusOf = async (invitationId: string): Promise<string | undefined> =>
    (
      await sqlTest.db.query<{ status: string }>(
        'select status::text from public.invitations where id = $1',
        [invitationId],
      )
    ).rows[0]?.status;

  const accept = (userId: string, token: string) =>
    asUser<{ role: string }>(userId, 'select role from private.accept_invitation(sha256($1::bytea))', [
      token,
    ]);

  describe("an invitation dies with its inviter's authority (item 4)", () => {
    test("removing an admin revokes their pending invitations, and no one else's", async () => {
      const workspace = await newWorkspace();
      const theirs = await invitedId(workspace.admin, workspace.id, uniqueEmail(), 'admin');
      const owners = await invitedId(workspace.owner, workspace.id, uniqueEmail(), 'member');
      expect(
        await asUser(
          workspace.owner,
          'delete from public.memberships where workspace_id = $1 and user_id = $2',
          [workspace.id, workspace.admin],
        ),
      ).toEqual({ rows: [] });
      expect(await statusOf(theirs)).toBe('revoked');
      expect(await statusOf(owners)).toBe('pending');
    });

    test('an admin leaving revokes their pending invitations too', async () => {
      const workspace = await newWorkspace();
      const theirs = await invitedId(workspace.admin, workspace.id, uniqueEmail(), 'member');
      await asUser(
        workspace.admin,
        'delete from public.memberships where workspace_id = $1 and user_id = $2',
        [workspace.id, workspace.admin],
      );
      expect(await statusOf(theirs)).toBe('revoked');
    });

    test('demoting revokes exactly the invitations the new role could not have made', async () => {
      const workspace = await newWorkspace();
      const asOwner = await invitedId(workspace.owner2, workspace.id, uniqueEmail(), 'owner');
      const asAdmin = await invitedId(workspace.owner2, workspace.id, uniqueEmail(), 'admin');
      const demote = (userId: string, role: Role) =>
        asUser(
          workspace.owner,
          'update public.memberships set role = $3 where workspace_id = $1 and user_id = $2',
          [workspace.id, userId, role],
        );
      expect(await demote(workspace.owner2, 'admin')).toEqual({ rows: [] });
      expect([await statusOf(asOwner), await statusOf(asAdmin)]).toEqual(['revoked', 'pending']);
      await demote(workspace.owner2, 'member');
      expect(await statusOf(asAdmin)).toBe('revoked');
    });

    test('accepting refuses an invitation whose inviter no longer may grant its role', async () => {
      const workspace = await newWorkspace();
      const outsider = await newUser();
      const cases: [string, string | null, Role][] = [
        ['left', outsider, 'member'],
        ['deleted', null, 'member'],
        ['member', workspace.member, 'viewer'],
        ['admin inviting an owner', workspace.admin, 'owner'],
      ];
      for (const [token, invitedBy, role] of cases) {
        const invitee = await newUser();
        // Written as the database owner, as if made before the inviter lost the right: no trigger revoked it.
        await sqlTest.db.query(
          `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
           select $1, u.email, $2, sha256($3::bytea), $4 from auth.users u where u.id = $5`,
          [workspace.id, role, token, invitedBy, invitee],
        );
        expect([token, await accept(invitee, token)]).toEqual([token, { refused: 'invitation_revoked' }]);
      }
      const invitee = await newUser();
      await sqlTest.db.query(
        `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
         select $1, u.email, 'admin', sha256('still-admin'::bytea), $2 from auth.users u where u.id = $3`,
        [workspace.id, workspace.admin, invitee],
      );
      expect(await accept(invitee, 'still-admin')).toEqual({ rows: [{ role: 'admin' }] });
    });

    test('a removed admin cannot accept, at another address, the admin invitation they sent before', async () => {
      const workspace = await newWorkspace();
      const alternative = `alt-${randomUUID().slice(0, 8)}@invitation-rules.test`;
      const alt = await newUser(alternative);
      await invitedId(workspace.admin, workspace.id, alternative, 'admin', 'alt-token');
      await asUser(
        workspace.owner,
        'delete from public.memberships where workspace_id = $1 and user_id = $2',
        [workspace.id, workspace.admin],
      );
      expect(await accept(alt, 'alt-token')).toEqual({ refused: 'invitation_revoked' });
      const joined = await sqlTest.db.query(
        'select 1 from public.memberships where workspace_id = $1 and user_id = $2',
        [workspace.id, alt],
      );
      expect(joined.rows).toEqual([]);
    });
  });

  describe('the address an invitation is bound to (item 11)', () => {
    test('accepting needs a confirmed e-mail address', async () => {
      const workspace = await newWorkspace();
      const email = uniqueEmail();
      const invitee = await newUser(email, { confirmed: false });
      const id = await invitedId(workspace.owner, workspace.id, email, 'member', 'unconfirmed');
      expect(await accept(invitee, 'unconfirmed')).toEqual({ refused: 'email_not_confirmed' });
      expect(await statusOf(id)).toBe('pending');
      await sqlTest.db.query('update auth.users set email_confirmed_at = now() where id = $1', [invitee]);
      expect(await accept(invitee, 'unconfirmed')).toEqual({ rows: [{ role: 'member' }] });
    });

    test(`one address gets at most ${INVITATIONS_PER_RECIPIENT_PER_DAY} invitations a day, from all workspaces`, async () => {
      const email = uniqueEmail();
      const workspaces = await Promise.all(
        Array.from({ length: INVITATIONS_PER_RECIPIENT_PER_DAY + 2 }, () => newWorkspace()),
      );
      const [old, ...rest] = workspaces;
      if (!old) throw new Error('no workspace');
      // One a day and a minute ago no longer counts; one whose workspace was deleted since still does.
      await invitedId(old.owner, old.id, email, 'member');
      await sqlTest.db.query(
        `update private.invitations_sent set created_at = now() - interval '1 day 1 minute'
         where recipient_hash = sha256(convert_to($1, 'UTF8'))`,
        [email],
      );
      const [gone, ...others] = rest;
      if (!gone) throw new Error('no workspace');
      await invitedId(gone.owner, gone.id, email, 'member');
      await sqlTest.db.query('delete from public.workspaces where id = $1', [gone.id]);
      for (const workspace of others.slice(0, INVITATIONS_PER_RECIPIENT_PER_DAY - 1)) {
        expect(await invite(workspace.admin, workspace.id, email.toUpperCase(), 'member')).toHaveProperty(
          'rows',
        );
      }
      const last = rest.at(-1);
      if (!last) throw new Error('no workspace');
      expect(await invite(last.owner, last.id, ` ${email} `, 'member')).toEqual({ refused: 'rate_limited' });
      const stored = await sqlTest.db.query('select 1 from public.invitations where workspace_id = $1', [
        last.id,
      ]);
      expect(stored.rows).toEqual([]);
    });
  });

  describe("an invitation's status under the API roles (item 5)", () => {
    const STATUSES: readonly Status[] = ['pending', 'accepted', 'revoked', 'expired'];
    const moves = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => to !== from && !(from === 'pending' && to === 'revoked')).map((to) => [
        from,
        to,
      ]),
    );

    test.each(moves)('refuses an admin moving an invitation from %s to %s', async (from, to) => {
      const workspace = await newWorkspace();
      const id = await invitedId(workspace.owner, workspace.id, uniqueEmail(), 'member');
      await sqlTest.db.query('update public.invitations set status = $2 where id = $1', [id, from]);
      for (const admin of [workspace.owner, workspace.admin]) {
        expect(
          await asUser(admin, 'update public.invitations set status = $2 where id = $1 returning status', [
            id,
            to,
          ]),
        ).toEqual({ refused: 'forbidden' });
      }
      expect(await statusOf(id)).toBe(from);
    });

    test('lets an admin revoke a pending invitation', async () => {
      const workspace = await newWorkspace();
      const id = await invitedId(workspace.owner, workspace.id, uniqueEmail(), 'member');
      expect(
        await asUser(
          workspace.admin,
          `update public.invitations set status = 'revoked' where id = $1 returning status`,
          [id],
        ),
      ).toEqual({ rows: [{ status: 'revoked' }] });
    });
  });

  describe('the limits are the database’s own (item 5)', () => {
    test('private.invitation_limits() holds the values of _shared/limits.ts', async () => {
      const { rows } = await sqlTest.db.query('select * from private.invitation_limits()');
      expect(rows).toEqual([
        {
          members_per_workspace: MEMBERS_PER_WORKSPACE,
          invitation_lifetime_days: INVITATION_LIFETIME_DAYS,
          sensitive_creations_per_hour: SENSITIVE_CREATIONS_PER_HOUR,
          invitations_per_recipient_per_day: INVITATIONS_PER_RECIPIENT_PER_DAY,
        },
      ]);
    });

    test('private.create_invitation takes no limit from its caller', async () => {
      const { rows } = await sqlTest.db.query<{ args: string }>(
        `select pg_get_function_identity_arguments(p.oid) as args from pg_proc p
         where p.oid = any (select oid from pg_proc where proname = 'create_invitation'
           and pronamespace = 'private'::regnamespace)`,
      );
      expect(rows).toEqual([
        {
          args: 'workspace uuid, invitee_email text, invitee_role workspace_role, invitation_token_hash bytea',
        },
      ]);
      const workspace = await newWorkspace();
      expect(
        await asUser(
          workspace.owner,
          `select private.create_invitation($1, 'x@invitation-rules.test', 'member', sha256('x'), 1000, 3650)`,
          [workspace.id],
        ),
      ).toEqual({ refused: expect.stringContaining('No function matches') });
    });

    test(`a person creates at most ${SENSITIVE_CREATIONS_PER_HOUR} invitations an hour, even calling the function directly`, async () => {
      const workspace = await newWorkspace();
      await sqlTest.db.query(
        `insert into public.invitations (workspace_id, email, role, token_hash, invited_by, status)
         select $1, 'old-' || n || '@invitation-rules.test', 'member', sha256(gen_random_uuid()::text::bytea), $2,
           'revoked'
         from generate_series(1, $3::integer) n`,
        [workspace.id, workspace.admin, SENSITIVE_CREATIONS_PER_HOUR],
      );
      expect(await invite(workspace.admin, workspace.id, uniqueEmail(), 'member')).toEqual({
        refused: 'rate_limited',
      });
    });
  });
});
