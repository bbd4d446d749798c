/**
 * The SQL functions that act on webhooks past RLS (…_create_webhooks.sql): setting a secret, queueing a
 * ping and sending a delivery again hold the policies' own rule (an admin, aal2 where the workspace
 * requires MFA, a live session), each run as the calling user, as the API runs them.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { useSqlAsUser } from '../support/sql-as-user.ts';

type Role = 'owner' | 'admin' | 'member' | 'viewer';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('private functions on webhooks', () => {
  const sqlTest = useSqlAsUser('webhooks.test');
  const { newUser, asUser } = sqlTest;
  let workspace: { id: string; webhookId: string; deliveryId: string } & Record<Role, string>;
  let outsiderAdmin: string;

  async function newWorkspace() {
    const users = {
      owner: await newUser(),
      admin: await newUser(),
      member: await newUser(),
      viewer: await newUser(),
    };
    const { rows } = await sqlTest.db.query<{ id: string }>(
      `insert into public.workspaces (name, slug, created_by) values ('Hooks', $1, $2) returning id`,
      [`hk-${randomUUID().slice(0, 8)}`, users.owner],
    );
    const id = rows[0]?.id ?? '';
    for (const [role, userId] of Object.entries(users)) {
      await sqlTest.db.query(
        'insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)',
        [id, userId, role],
      );
    }
    const hook = await sqlTest.db.query<{ id: string }>(
      `insert into public.webhooks (workspace_id, url, events) values ($1, 'https://hooks.example.com/x', '{*}') returning id`,
      [id],
    );
    const webhookId = hook.rows[0]?.id ?? '';
    const ping = await sqlTest.db.query<{ id: string }>(
      `insert into public.webhook_deliveries (webhook_id, workspace_id, event_type, payload, status, next_attempt_at)
       values ($1, $2, 'ping', '{}', 'failed', null) returning id`,
      [webhookId, id],
    );
    return { id, webhookId, deliveryId: ping.rows[0]?.id ?? '', ...users };
  }

  beforeAll(async () => {
    workspace = await newWorkspace();
    outsiderAdmin = (await newWorkspace()).admin;
  });

  const setSecret = (user: string) =>
    asUser(user, 'select private.set_webhook_secret($1, $2, false)', [workspace.webhookId, SECRET]);
  const ping = (user: string) =>
    asUser(user, 'select id from private.queue_webhook_ping($1)', [workspace.webhookId]);
  const redeliver = (user: string) =>
    asUser(user, 'select private.redeliver_webhook_delivery($1)', [workspace.deliveryId]);

  test.each(['owner', 'admin'] as const)('the %s may set the secret, ping and redeliver', async (role) => {
    expect(await setSecret(workspace[role])).toHaveProperty('rows');
    expect(await ping(workspace[role])).toHaveProperty('rows');
    expect(await redeliver(workspace[role])).toHaveProperty('rows');
  });

  test.each(['member', 'viewer'] as const)('a %s may not: the webhook is not theirs to see', async (role) => {
    expect(await setSecret(workspace[role])).toEqual({ refused: 'not_found' });
    expect(await ping(workspace[role])).toEqual({ refused: 'not_found' });
    expect(await redeliver(workspace[role])).toEqual({ refused: 'not_found' });
  });

  test("another workspace's admin may not", async () => {
    expect(await setSecret(outsiderAdmin)).toEqual({ refused: 'not_found' });
    expect(await ping(outsiderAdmin)).toEqual({ refused: 'not_found' });
    expect(await redeliver(outsiderAdmin)).toEqual({ refused: 'not_found' });
  });

  test('an admin at aal1, once the workspace requires MFA, may not', async () => {
    await sqlTest.db.query('update public.workspaces set require_mfa = true where id = $1', [workspace.id]);
    try {
      expect(await setSecret(workspace.admin)).toEqual({ refused: 'not_found' });
      expect(await ping(workspace.admin)).toEqual({ refused: 'not_found' });
      expect(await redeliver(workspace.admin)).toEqual({ refused: 'not_found' });
    } finally {
      await sqlTest.db.query('update public.workspaces set require_mfa = false where id = $1', [
        workspace.id,
      ]);
    }
  });

  test('an admin whose session ended may not', async () => {
    await sqlTest.db.query('delete from auth.sessions where user_id = $1', [workspace.admin]);
    expect(await setSecret(workspace.admin)).toEqual({ refused: 'not_found' });
    expect(await ping(workspace.admin)).toEqual({ refused: 'not_found' });
  });
});
