/**
 * A workspace with one person in each role, a second workspace none of them belongs to, and the rows a
 * policy can be asked about: the cast every RLS test in tests/db plays with.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { WorkspaceRole } from '../../supabase/functions/_shared/api-types.ts';
import { WORKSPACE_ROLES as ROLES } from '../../supabase/functions/api/members/members.schemas.ts';
import { ensureLiveSession } from '../support/live-session.ts';

export { ROLES, type WorkspaceRole };
/** Who asks: a member in each role, a signed-in user of another workspace, or nobody (`anon`). */
export type Caller = WorkspaceRole | 'outsider' | 'anon';
export const CALLERS: readonly Caller[] = [...ROLES, 'outsider', 'anon'];

export interface RlsFixture {
  users: Record<WorkspaceRole | 'outsider' | 'target', string>;
  workspaceId: string;
  otherWorkspaceId: string;
  projectId: string;
  /** A task of the project. */
  taskId: string;
  /** A comment on the task by each member of the main workspace. */
  commentIds: Record<WorkspaceRole | 'target', string>;
  labelId: string;
  invitationId: string;
  /** An API token of `target`'s. */
  apiTokenId: string;
  /** An Idempotency-Key record of `target`'s. */
  idempotencyKeyId: string;
  /** An event of the main workspace (the triggers wrote them as the fixture was made). */
  eventId: string;
  /** A ready attachment on the task uploaded by each member of the main workspace. */
  attachmentIds: Record<WorkspaceRole | 'target', string>;
  /** `target`'s notification about the task. Every member watches the task and has a notification about it,
   * and everyone (the outsider in their own workspace) has a notification setting for `commented`. */
  notificationId: string;
  /** A webhook of the main workspace, subscribed to every event, and a test delivery of it. */
  webhookId: string;
  webhookDeliveryId: string;
  /** An import recorded in the main workspace, by its owner. */
  importId: string;
}

export async function createRlsFixture(db: pg.Client): Promise<RlsFixture> {
  const users = {
    owner: randomUUID(),
    admin: randomUUID(),
    member: randomUUID(),
    viewer: randomUUID(),
    outsider: randomUUID(),
    // A second member, whom the probes change and remove.
    target: randomUUID(),
  };
  for (const [name, id] of Object.entries(users)) {
    await db.query(
      `insert into auth.users (id, email, aud, role, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', now(), now())`,
      [id, `${name}@rls.test`],
    );
    await ensureLiveSession(db, id);
  }
  const workspaceId = await insertWorkspace(db, 'rls-main', users.owner);
  for (const role of ['admin', 'member', 'viewer'] as const) {
    await addMember(db, workspaceId, users[role], role);
  }
  await addMember(db, workspaceId, users.target, 'member');
  const otherWorkspaceId = await insertWorkspace(db, 'rls-other', users.outsider);
  await insertWorkspaceRows(db, otherWorkspaceId, users.outsider, 'other');
  const projectId = await insertReturningId(
    db,
    `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'ENG', 'Engineering', $2)`,
    [workspaceId, users.owner],
  );
  const taskId = await insertTask(db, projectId, users.owner);
  return {
    users,
    workspaceId,
    otherWorkspaceId,
    projectId,
    taskId,
    commentIds: await insertCommentsByEach(db, taskId, users),
    labelId: await insertReturningId(
      db,
      `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'bug', '#d73a4a', $2)`,
      [workspaceId, users.owner],
    ),
    invitationId: await insertReturningId(
      db,
      `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
       values ($1, 'invitee@rls.test', 'member', sha256('rls-invitation'), $2)`,
      [workspaceId, users.owner],
    ),
    apiTokenId: await insertReturningId(
      db,
      `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, 'CI', 'tl_pat_AAAA', sha256('rls-api-token'), 'write', now() + interval '1 day')`,
      [users.target],
    ),
    idempotencyKeyId: await insertReturningId(
      db,
      `insert into public.idempotency_keys (user_id, principal, key, request_hash, response, expires_at)
       values ($1::uuid, 'user:' || $1::text, 'rls-key', repeat('a', 64), '{}', now() + interval '1 day')`,
      [users.target],
    ),
    eventId: await firstEventOf(db, workspaceId),
    attachmentIds: await insertAttachmentsByEach(db, workspaceId, taskId, users),
    notificationId: await insertNotificationRows(db, workspaceId, otherWorkspaceId, taskId, users),
    ...(await insertWebhookRows(db, workspaceId, otherWorkspaceId)),
    importId: await insertImportRow(db, workspaceId, users.owner),
  };
}

/** An import of the main workspace, as its owner recorded it. */
async function insertImportRow(db: pg.Client, workspaceId: string, ownerId: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.imports (workspace_id, source, projects, counts, problems, created_by)
     values ($1, 'csv', '[]', '{}', '[]', $2) returning id`,
    [workspaceId, ownerId],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('insert into imports returned no row');
  return id;
}

/** A webhook with a ping in each workspace; answers the main workspace's. */
async function insertWebhookRows(
  db: pg.Client,
  workspaceId: string,
  otherWorkspaceId: string,
): Promise<Pick<RlsFixture, 'webhookId' | 'webhookDeliveryId'>> {
  const { rows } = await db.query<{ webhook_id: string; delivery_id: string; main: boolean }>(
    `with hook as (
       insert into public.webhooks (workspace_id, url, events)
       values ($1, 'https://hooks.example.com/tasklane', '{*}'), ($2, 'https://hooks.example.com/tasklane', '{*}')
       returning id, workspace_id
     )
     insert into public.webhook_deliveries (webhook_id, workspace_id, event_type, payload)
     select id, workspace_id, 'ping', '{"type": "ping"}' from hook
     returning webhook_id, id as delivery_id, workspace_id = $1 as main`,
    [workspaceId, otherWorkspaceId],
  );
  const main = rows.find((row) => row.main);
  if (!main) throw new Error('no webhook in the main workspace');
  return { webhookId: main.webhook_id, webhookDeliveryId: main.delivery_id };
}

/**
 * Every member of the main workspace watches the task and has a notification of a comment on it; the
 * outsider has one in their own workspace; everyone has a setting. Answers `target`'s notification.
 */
async function insertNotificationRows(
  db: pg.Client,
  workspaceId: string,
  otherWorkspaceId: string,
  taskId: string,
  users: RlsFixture['users'],
): Promise<string> {
  const members = [users.owner, users.admin, users.member, users.viewer, users.target];
  await db.query(`insert into public.task_watchers (task_id, user_id) select $1, unnest($2::uuid[])`, [
    taskId,
    members,
  ]);
  await db.query(
    `insert into public.notifications (user_id, workspace_id, task_id, type)
     select unnest($3::uuid[]), $1, $2, 'commented'`,
    [workspaceId, taskId, members.filter((id) => id !== users.target)],
  );
  await db.query(
    `insert into public.notifications (user_id, workspace_id, type) values ($1, $2, 'invitation_accepted')`,
    [users.outsider, otherWorkspaceId],
  );
  await db.query(
    `insert into public.notification_settings (user_id, type, delivery) select unnest($1::uuid[]), 'commented', 'inbox'`,
    [Object.values(users)],
  );
  return insertReturningId(
    db,
    `insert into public.notifications (user_id, workspace_id, task_id, type) values ($1, $2, $3, 'commented')`,
    [users.target, workspaceId, taskId],
  );
}

/** A ready attachment, as the API's private functions would leave it (the fixture writes as the owner). */
export async function insertAttachment(
  db: pg.Client,
  workspaceId: string,
  taskId: string,
  uploadedBy: string,
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into public.attachments
       (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, status, uploaded_by, ready_at)
     values ($1::uuid, $2::uuid, $3::uuid, $2::text || '/' || $3::text || '/' || $1::text, 'screenshot.png', 'image/png', 1234, 'ready', $4, now())`,
    [id, workspaceId, taskId, uploadedBy],
  );
  return id;
}

async function insertAttachmentsByEach(
  db: pg.Client,
  workspaceId: string,
  taskId: string,
  users: RlsFixture['users'],
): Promise<RlsFixture['attachmentIds']> {
  const by = (uploader: keyof RlsFixture['attachmentIds']) =>
    insertAttachment(db, workspaceId, taskId, users[uploader]);
  return {
    owner: await by('owner'),
    admin: await by('admin'),
    member: await by('member'),
    viewer: await by('viewer'),
    target: await by('target'),
  };
}

async function firstEventOf(db: pg.Client, workspaceId: string): Promise<string> {
  const result = await db.query<{ id: string }>(
    'select id::text as id from public.events where workspace_id = $1 order by seq limit 1',
    [workspaceId],
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error('the fixture wrote no event');
  return id;
}

/**
 * A project, a task with a comment, a label and an invitation in the other workspace, so there is
 * something not to see.
 */
async function insertWorkspaceRows(db: pg.Client, workspaceId: string, owner: string, tag: string) {
  const projectId = await insertReturningId(
    db,
    `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'OPS', 'Operations', $2)`,
    [workspaceId, owner],
  );
  const taskId = await insertTask(db, projectId, owner);
  await db.query(`insert into public.comments (task_id, author_id, body) values ($1, $2, 'Not for you')`, [
    taskId,
    owner,
  ]);
  await insertAttachment(db, workspaceId, taskId, owner);
  await db.query(
    `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'ops', '#0075ca', $2)`,
    [workspaceId, owner],
  );
  await db.query(
    `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
     values ($1, 'invitee@rls.test', 'member', sha256($3::bytea), $2)`,
    [workspaceId, owner, `rls-invitation-${tag}`],
  );
}

async function insertTask(db: pg.Client, projectId: string, createdBy: string): Promise<string> {
  return insertReturningId(
    db,
    `insert into public.tasks (project_id, title, position, created_by) values ($1, 'Fix the login', 'a0', $2)`,
    [projectId, createdBy],
  );
}

async function insertCommentsByEach(
  db: pg.Client,
  taskId: string,
  users: RlsFixture['users'],
): Promise<RlsFixture['commentIds']> {
  const commentBy = (author: keyof RlsFixture['commentIds']) =>
    insertReturningId(db, `insert into public.comments (task_id, author_id, body) values ($1, $2, $3)`, [
      taskId,
      users[author],
      `Said by the ${author}`,
    ]);
  return {
    owner: await commentBy('owner'),
    admin: await commentBy('admin'),
    member: await commentBy('member'),
    viewer: await commentBy('viewer'),
    target: await commentBy('target'),
  };
}

async function insertWorkspace(db: pg.Client, slug: string, owner: string): Promise<string> {
  const id = await insertReturningId(
    db,
    `insert into public.workspaces (name, slug, created_by) values ($1, $1, $2)`,
    [slug, owner],
  );
  await addMember(db, id, owner, 'owner');
  return id;
}

async function addMember(db: pg.Client, workspaceId: string, userId: string, role: string): Promise<void> {
  await db.query(`insert into public.memberships (workspace_id, user_id, role) values ($1, $2, $3)`, [
    workspaceId,
    userId,
    role,
  ]);
}

async function insertReturningId(db: pg.Client, sql: string, values: unknown[]): Promise<string> {
  const result = await db.query<{ id: string }>(`${sql} returning id`, values);
  const id = result.rows[0]?.id;
  if (!id) throw new Error(`no id from: ${sql}`);
  return id;
}

export type ProbeOutcome = 'allowed' | 'denied';

/**
 * Runs one statement as `caller` (role `authenticated` with the caller's JWT claims, or `anon`) inside a
 * transaction that is rolled back, so probes never change what the next one sees. A statement is allowed
 * when it returns or touches at least one row; denied when it touches none or Postgres refuses it.
 */
export async function probe(
  db: pg.Client,
  fixture: RlsFixture,
  caller: Caller,
  sql: string,
  values: unknown[],
): Promise<ProbeOutcome> {
  await db.query('begin');
  try {
    if (caller === 'anon') {
      await db.query(`select set_config('role', 'anon', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ role: 'anon' }),
      ]);
    } else {
      // As a signed-in session: API tokens, which have none, may not manage tokens even in SQL.
      const claims = {
        sub: fixture.users[caller],
        role: 'authenticated',
        aal: 'aal1',
        session_id: fixture.users[caller],
      };
      await db.query(
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
        [JSON.stringify(claims)],
      );
    }
    const result = await db.query(sql, values);
    return (result.rowCount ?? 0) > 0 ? 'allowed' : 'denied';
  } catch (error) {
    if (isRefusal(error)) return 'denied';
    throw error;
  } finally {
    await db.query('rollback');
  }
}

/**
 * Postgres' ways of saying no: no privilege, or a row that breaks a policy's check (42501), or a rule
 * a trigger enforces, such as keeping the last owner (P0001).
 */
function isRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '42501' || code === 'P0001';
}
