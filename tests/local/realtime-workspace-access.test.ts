/**
 * The second security review, item 3: a person who loses access to a workspace while their channel is open —
 * removed, or an aal1 session when the workspace turns MFA on — must not go on receiving its content; nor,
 * item 2, a session signed out since, or a user banned or soft-deleted since. Hosted Realtime authorizes a
 * channel at join and at token refresh only, so the database's broadcasts carry no content at all (ids, type,
 * version, seq, cursors and the names of the changed fields: docs/realtime.md) and the client reads what
 * changed through the API, which checks access on every call. The stand-in, as hosted does, evaluates the
 * channel's read policies again at each recheck (a new access token, and the periodic one) and shuts the
 * channel down when they now refuse (docs/supabase-protocols.md#token-refresh-on-a-joined-channel). The
 * workspaces, memberships and changes here are made as the database owner, through the real tables and
 * triggers.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, test } from 'vitest';
import { useStandIn } from '../support/stand-in-auth.ts';
import {
  eventually,
  FAST_REALTIME,
  liveUser,
  realtimeClient,
  signedToken,
} from '../support/stand-in-realtime.ts';

/** The periodic recheck of a joined channel, short so that the tests need not wait five minutes for it. */
const RECHECK_MS = 700;

type Role = 'owner' | 'admin' | 'member' | 'viewer';
type Aal = 'aal1' | 'aal2';

interface Received {
  event: string;
  payload: Record<string, unknown>;
}

interface Listener {
  received: Received[];
  system: { status?: string; message?: string }[];
  statuses: string[];
  client: SupabaseClient;
  /** Signs a fresh token for the same person and session and sends it on the channel. */
  refreshToken(): Promise<void>;
}

interface Workspace {
  id: string;
  people: Record<Role, string>;
  taskId: string;
}

describe('the stand-in Realtime service: a workspace channel of someone who lost access', () => {
  const standIn = useStandIn({ ...FAST_REALTIME, TASKLANE_REALTIME_TOKEN_RECHECK_MS: String(RECHECK_MS) });
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const sql = (text: string, values: unknown[] = []) => standIn.withDatabase((db) => db.query(text, values));

  async function newUser(name: string): Promise<string> {
    const id = randomUUID();
    await sql(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', $3, now(), now())`,
      [id, `${name}-${id.slice(0, 8)}@example.com`, { display_name: name }],
    );
    return id;
  }

  /** A workspace with one person of each role, a project and a task. */
  async function newWorkspace(): Promise<Workspace> {
    const people = {
      owner: await newUser('Owner'),
      admin: await newUser('Admin'),
      member: await newUser('Member'),
      viewer: await newUser('Viewer'),
    };
    const slug = `access-${randomUUID().slice(0, 8)}`;
    const { rows: workspaces } = await sql(
      `insert into public.workspaces (slug, name, created_by) values ($1, $1, $2) returning id`,
      [slug, people.owner],
    );
    const id = (workspaces[0] as { id: string }).id;
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
      await sql(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)`, [
        id,
        people[role],
        role,
      ]);
    }
    const { rows: projects } = await sql(
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'AC', 'Access', $2) returning id`,
      [id, people.owner],
    );
    const { rows: tasks } = await sql(
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'Before', 'a0', $2) returning id`,
      [(projects[0] as { id: string }).id, people.owner],
    );
    return { id, people, taskId: (tasks[0] as { id: string }).id };
  }

  /** `userId`'s session joined to the workspace's private channel, collecting what it receives. */
  async function listen(workspace: Workspace, userId: string, aal: Aal = 'aal1'): Promise<Listener> {
    // A live session of the user's: RLS admits no other (decision 0032).
    const session = await liveUser(standIn.process, userId);
    const sign = () =>
      signedToken(standIn.process, {
        ...session,
        aal,
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 3600,
        jti: randomUUID(),
      });
    let token = await sign();
    const client = realtimeClient(standIn.process.apiUrl, standIn.keys.anonKey, {}, async () => token);
    cleanups.push(() => client.removeAllChannels());
    await client.realtime.setAuth(); // before the join, which would otherwise go out with the anon key
    const listener: Listener = {
      received: [],
      system: [],
      statuses: [],
      client,
      refreshToken: async () => {
        token = await sign();
        await client.realtime.setAuth();
      },
    };
    const channel: RealtimeChannel = client.channel(`workspace:${workspace.id}`, {
      config: { private: true },
    });
    channel.on('broadcast', { event: '*' }, (message) =>
      listener.received.push(message as unknown as Received),
    );
    channel.on('system', {}, (payload: { status?: string; message?: string }) =>
      listener.system.push(payload),
    );
    await new Promise<void>((resolve, reject) => {
      channel.subscribe((status, error) => {
        listener.statuses.push(status);
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CHANNEL_ERROR' && listener.statuses.length === 1) reject(error ?? new Error(status));
      });
    });
    return listener;
  }

  /** The owner retitles the task and raises its priority; resolves once a witness heard it. */
  async function changeTheTask(workspace: Workspace, witness: Listener, title: string): Promise<void> {
    const before = witness.received.length;
    await sql(`update public.tasks set title = $2, priority = 'urgent' where id = $1`, [
      workspace.taskId,
      title,
    ]);
    await eventually(
      () => witness.received.slice(before).some((message) => message.event === 'task.updated'),
      3_000,
      'the witness hearing the change',
    );
    // Whatever the other socket gets, it gets in the same fan-out; a little more time for a slow one.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const everything = (listener: Listener) => JSON.stringify(listener.received);

  test("a removed member's open channel receives no task content after removal", async () => {
    const workspace = await newWorkspace();
    const owner = await listen(workspace, workspace.people.owner);
    const member = await listen(workspace, workspace.people.member);
    await sql('delete from public.memberships where workspace_id = $1 and user_id = $2', [
      workspace.id,
      workspace.people.member,
    ]);
    await changeTheTask(workspace, owner, 'Secret plan after removal');
    expect(everything(member)).not.toContain('Secret plan');
    expect(everything(member)).not.toContain('urgent');
  });

  test('an aal1 session in a workspace that turns MFA on receives no task content after it', async () => {
    const workspace = await newWorkspace();
    const owner = await listen(workspace, workspace.people.owner, 'aal2');
    const member = await listen(workspace, workspace.people.member, 'aal1');
    await sql('update public.workspaces set require_mfa = true where id = $1', [workspace.id]);
    await changeTheTask(workspace, owner, 'Secret plan under MFA');
    expect(everything(member)).not.toContain('Secret plan');
    expect(everything(member)).not.toContain('urgent');
  });

  describe('at the next recheck, a channel whose read policies now refuse is shut down', () => {
    const refusal = (workspace: Workspace) =>
      `You no longer have permission to read from this Channel topic: workspace:${workspace.id}`;

    test('the periodic recheck shuts a removed member out; nothing of the workspace reaches them after it', async () => {
      const workspace = await newWorkspace();
      const owner = await listen(workspace, workspace.people.owner);
      const member = await listen(workspace, workspace.people.member);
      await sql('delete from public.memberships where workspace_id = $1 and user_id = $2', [
        workspace.id,
        workspace.people.member,
      ]);
      await eventually(() => member.statuses.includes('CLOSED'), RECHECK_MS * 4, 'the shutdown');
      expect(member.system).toEqual([
        {
          extension: 'system',
          status: 'error',
          message: refusal(workspace),
          channel: `workspace:${workspace.id}`,
        },
      ]);
      const heard = member.received.length;
      await changeTheTask(workspace, owner, 'After the shutdown');
      expect(member.received.length).toBe(heard);
    });

    test('a new access token shuts out an aal1 session of a workspace that now requires MFA', async () => {
      const workspace = await newWorkspace();
      const member = await listen(workspace, workspace.people.member, 'aal1');
      await sql('update public.workspaces set require_mfa = true where id = $1', [workspace.id]);
      await member.refreshToken();
      await eventually(() => member.statuses.includes('CLOSED'), RECHECK_MS, 'the shutdown');
      expect(member.system.map((message) => message.message)).toEqual([refusal(workspace)]);
    });

    type Change = keyof typeof CHANGES | 'nothing';
    /** What may take a channel away: a statement and its values, given the workspace and the person. */
    const CHANGES = {
      removed: (workspace: string, user: string) => [
        'delete from public.memberships where workspace_id = $1 and user_id = $2',
        [workspace, user],
      ],
      'made viewer': (workspace: string, user: string) => [
        `update public.memberships set role = 'viewer' where workspace_id = $1 and user_id = $2`,
        [workspace, user],
      ],
      'MFA required': (workspace: string) => [
        'update public.workspaces set require_mfa = true where id = $1',
        [workspace],
      ],
      // The person's credential stops standing (decision 0032); their membership stays.
      'signed out': (_: string, user: string) => ['delete from auth.sessions where user_id = $1', [user]],
      banned: (_: string, user: string) => [
        `update auth.users set banned_until = now() + interval '1 day' where id = $1`,
        [user],
      ],
      'soft-deleted': (_: string, user: string) => [
        'update auth.users set deleted_at = now() where id = $1',
        [user],
      ],
    } satisfies Record<string, (workspace: string, user: string) => [string, unknown[]]>;

    // Every way of standing on a workspace's channel against each change that may take it away.
    const MATRIX: {
      who: string;
      role: Role;
      aal: Aal;
      change: Change;
      keeps: boolean;
    }[] = [
      ...(['owner', 'admin', 'member', 'viewer'] as const).map((role) => ({
        who: `the ${role}`,
        role,
        aal: 'aal1' as const,
        change: 'nothing' as const,
        keeps: true,
      })),
      { who: 'a member', role: 'member', aal: 'aal1', change: 'made viewer', keeps: true },
      { who: 'an admin', role: 'admin', aal: 'aal1', change: 'removed', keeps: false },
      { who: 'a viewer', role: 'viewer', aal: 'aal1', change: 'removed', keeps: false },
      { who: 'an aal1 member', role: 'member', aal: 'aal1', change: 'MFA required', keeps: false },
      { who: 'an aal1 owner', role: 'owner', aal: 'aal1', change: 'MFA required', keeps: false },
      { who: 'an aal2 member', role: 'member', aal: 'aal2', change: 'MFA required', keeps: true },
      { who: 'a member', role: 'member', aal: 'aal1', change: 'signed out', keeps: false },
      { who: 'an owner', role: 'owner', aal: 'aal2', change: 'banned', keeps: false },
      { who: 'a viewer', role: 'viewer', aal: 'aal1', change: 'soft-deleted', keeps: false },
    ];

    test.each(MATRIX)('$who, $change: keeps the channel: $keeps', async ({ role, aal, change, keeps }) => {
      const workspace = await newWorkspace();
      const userId = workspace.people[role];
      const listener = await listen(workspace, userId, aal);
      if (change !== 'nothing') await sql(...CHANGES[change](workspace.id, userId));
      if (keeps) {
        await new Promise((resolve) => setTimeout(resolve, RECHECK_MS * 2.5));
        expect(listener.statuses).toEqual(['SUBSCRIBED']);
        expect(listener.system).toEqual([]);
      } else {
        await eventually(() => listener.statuses.includes('CLOSED'), RECHECK_MS * 4, 'the shutdown');
        expect(listener.system.map((message) => message.message)).toEqual([refusal(workspace)]);
      }
    });
  });
});
