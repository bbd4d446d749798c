/**
 * Every operation of openapi.yaml in one table: who may call it (docs/product.md#roles), how to make a valid
 * call of it in a workspace fixture, and what it answers when it succeeds. The authorization matrix and the
 * fuzz tests are generated from it, and a coverage test fails when the spec and the table disagree, so a new
 * endpoint cannot skip either.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../supabase/functions/api/app-env.ts';
import type { Database } from '../../supabase/functions/_shared/db.ts';
import {
  INVITATIONS_PER_RECIPIENT_PER_DAY,
  PENDING_UPLOADS_PER_USER,
  WORKSPACE_STORAGE_BYTES,
} from '../../supabase/functions/_shared/limits.ts';
import { callApi } from './api-request.ts';
import { withBearer } from './test-users.ts';
import { WORKSPACE_ROLES, type WorkspaceFixture, type WorkspaceRole } from './workspace-fixture.ts';
import { asService } from './service-transaction.ts';
import { selectUnsubscribeSigningKey } from '../../supabase/functions/api/notification-mail/notification-mail.queries.ts';
import { signUnsubscribeToken } from '../../supabase/functions/api/notification-mail/unsubscribe-token.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call an operation. API token scopes (`read`: safe methods only) apply on top of each. */
export type Access =
  /** Anyone, without credentials. */
  | { kind: 'public' }
  /**
   * Any signed-in person, by session or API token. `ownResource`: the call names something of the fixture
   * owner's, which is `404` to anyone else.
   */
  | { kind: 'signed_in'; ownResource?: boolean }
  /**
   * Anyone, signed in or not (credentials optional): someone holding a secret link. A credential that is
   * sent must stand, as anywhere (`401` otherwise).
   */
  | { kind: 'optional_credentials' }
  /**
   * A signed-in session only: API tokens get `403 forbidden`. `ownResource`: the call names something of
   * the fixture owner's, which is `404` to anyone else.
   */
  | { kind: 'session_only'; ownResource: boolean }
  /**
   * Members of the workspace in one of `roles`, and the member in role `self` when the call names them
   * (leaving, say); other members `403 forbidden`, everyone else `404`.
   */
  | { kind: 'workspace'; roles: readonly WorkspaceRole[]; self?: WorkspaceRole }
  /** The person an invitation was sent to (the fixture's outsider); anyone else `403 forbidden`. */
  | { kind: 'invitee' }
  /** The scheduler, with the project's secret key: every person and token is `401 unauthenticated`. */
  | { kind: 'service' };

export interface OperationContext {
  app: Hono<AppEnv>;
  /** For what no call can arrange (a notification, which only others' actions write). */
  db: Database;
  fixture: WorkspaceFixture;
  /** An aal2 session of the fixture's owner, which even a `require_mfa` workspace lets in. */
  ownerBearer: string;
}

/** A call that succeeds for a caller the operation allows. */
export interface PreparedCall {
  /** A value for each `{param}` of the path template, URL-safe as they are. */
  params: Record<string, string>;
  /** A valid body, for operations that take one. */
  body?: Record<string, unknown>;
  /** A valid multipart/form-data body (multipartOf), for operations that take a file instead. */
  multipart?: MultipartBody;
}

export interface MultipartBody {
  contentType: string;
  text: string;
}

/** The request that sends `call` for `method`: its body, JSON or multipart, with its Content-Type. */
export function requestInitOf(method: Method, call: PreparedCall): RequestInit {
  const init: RequestInit = { method: method.toUpperCase() };
  if (call.body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(call.body);
  }
  if (call.multipart !== undefined) {
    init.headers = { 'Content-Type': call.multipart.contentType };
    init.body = call.multipart.text;
  }
  return init;
}

const BOUNDARY = 'tasklane-test-boundary';

/** A form of text fields and one file, as a browser sends it, in one string. */
export function multipartOf(
  fields: Record<string, string>,
  file: { name: string; text: string },
): MultipartBody {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: text/csv\r\n\r\n${file.text}\r\n`,
  );
  return {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    text: `${parts.join('')}--${BOUNDARY}--\r\n`,
  };
}

/**
 * A call by a caller the operation allows that the state of things must still refuse (the first security
 * review): the authorization matrix arranges the state, sends the call and expects the problem, with nothing
 * changed.
 */
export interface Refusal {
  name: string;
  /** Who sends the call: the fixture's owner (aal2) unless named. */
  as?: 'owner' | 'outsider';
  /** Puts things in the refusing state, as the service where the API cannot; the call to send. */
  arrange(context: OperationContext, call: PreparedCall, db: Database): Promise<PreparedCall>;
  expected: { status: number; code: string };
}

export interface Operation {
  operationId: string;
  method: Method;
  /** The spec's path template, e.g. `/v1/workspaces/{slug}/projects/{key}`. */
  path: string;
  access: Access;
  success: 200 | 201 | 202 | 204;
  prepare(context: OperationContext): Promise<PreparedCall>;
  refusals?: readonly Refusal[];
}

export const SAFE_METHODS: readonly Method[] = ['get'];

/** The address to send a call to: the template under /api, its parameters as the given raw segments. */
export function addressOf(template: string, segments: Record<string, string>, query = ''): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const segment = segments[name];
    if (segment === undefined) throw new Error(`no value for {${name}} of ${template}`);
    return segment;
  });
  return `/api${path}${query}`;
}

const EDITORS: readonly WorkspaceRole[] = ['owner', 'admin', 'member'];
const ADMINS: readonly WorkspaceRole[] = ['owner', 'admin'];

const uniqueSuffix = () => randomUUID().replaceAll('-', '').slice(0, 8);
/** A project key nobody else uses (docs/product.md#validation: `^[A-Z][A-Z0-9]+$`, 2–10 characters). */
const uniqueProjectKey = () => `K${uniqueSuffix().toUpperCase()}`;

const Created = z.object({ id: z.string() });
const CreatedProject = z.object({ key: z.string() });
const CreatedInvitation = z.object({ id: z.string(), accept_url: z.string() });
const CreatedTask = z.object({ id: z.string(), key: z.string() });

/** Creates something through the API as the fixture's owner; fails loudly if the API refuses. */
async function createAsOwner<T>(
  context: OperationContext,
  path: string,
  body: Record<string, unknown>,
  schema: z.ZodType<T>,
): Promise<T> {
  const response = await callApi(
    context.app,
    `/api${path}`,
    withBearer(context.ownerBearer, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  if (response.status !== 201) {
    throw new Error(`preparing a call: POST ${path} answered ${response.status}: ${response.text}`);
  }
  return schema.parse(response.body);
}

const inWorkspace = ({ fixture }: OperationContext) => ({ slug: fixture.slug });
const workspacePath = (context: OperationContext, rest: string) =>
  `/v1/workspaces/${context.fixture.slug}${rest}`;

const createProject = (context: OperationContext) =>
  createAsOwner(
    context,
    workspacePath(context, '/projects'),
    { key: uniqueProjectKey(), name: 'Matrix project' },
    CreatedProject,
  );

const createLabel = (context: OperationContext) =>
  createAsOwner(
    context,
    workspacePath(context, '/labels'),
    { name: `label ${uniqueSuffix()}`, color: '#3366ff' },
    Created,
  );

const createInvitation = (context: OperationContext, email = `invitee-${uniqueSuffix()}@example.com`) =>
  createAsOwner(
    context,
    workspacePath(context, '/invitations'),
    { email, role: 'member' },
    CreatedInvitation,
  );

/**
 * Room for one more webhook: the calls share the fixture's workspace, which holds 10 at most, so each
 * starts from none.
 */
const clearWebhooks = (context: OperationContext) =>
  asService(context.db, (sql) =>
    sql.query('delete from public.webhooks where workspace_id = $1', [context.fixture.id]),
  );

/**
 * An import's form: a one-task CSV into a project the workspace has (so that no import needs a project
 * of its own: the matrix's workspace gathers many, up to the limit), made if it has none.
 */
const importIntoExistingProject = async (context: OperationContext): Promise<MultipartBody> => {
  const [found] = await asService(context.db, (sql) =>
    sql.query<{ key: string }>(
      'select key from public.projects where workspace_id = $1 and archived_at is null order by created_at limit 1',
      [context.fixture.id],
    ),
  );
  const key = found?.key ?? (await createProject(context)).key;
  return multipartOf(
    { source: 'csv', dry_run: 'false', options: JSON.stringify({ project: { key } }) },
    { name: 'matrix.csv', text: `Title,Status\nMatrix task ${uniqueSuffix()},Done\n` },
  );
};

/** The import of a one-task CSV into the fixture's workspace, as its owner. */
const createImport = async (context: OperationContext) => {
  const { contentType, text } = await importIntoExistingProject(context);
  const response = await callApi(
    context.app,
    `/api${workspacePath(context, '/imports')}`,
    withBearer(context.ownerBearer, { method: 'POST', headers: { 'Content-Type': contentType }, body: text }),
  );
  if (response.status !== 201) {
    throw new Error(`preparing a call: the import answered ${response.status}: ${response.text}`);
  }
  return Created.parse(response.body);
};

/** A webhook of the fixture's workspace, to a loopback receiver nothing listens on (none is sent here). */
const createWebhook = async (context: OperationContext) => {
  await clearWebhooks(context);
  return createAsOwner(
    context,
    workspacePath(context, '/webhooks'),
    { url: `http://127.0.0.1:9/matrix-${uniqueSuffix()}`, events: ['task.*'] },
    Created,
  );
};

/** A webhook with a ping queued: its id and the ping's. */
const createWebhookWithPing = async (context: OperationContext) => {
  const { id } = await createWebhook(context);
  const ping = await callApi(
    context.app,
    `/api${workspacePath(context, `/webhooks/${id}/test`)}`,
    withBearer(context.ownerBearer, { method: 'POST' }),
  );
  if (ping.status !== 202) throw new Error(`preparing a call: the test ping answered ${ping.status}`);
  return { id, deliveryId: Created.parse(ping.body).id };
};

const createApiToken = (context: OperationContext) =>
  createAsOwner(context, '/v1/me/tokens', { name: 'Matrix', scope: 'read' }, Created);

/** A task in a new project of the fixture's workspace. */
const createTaskInNewProject = async (context: OperationContext) => {
  const { key } = await createProject(context);
  return createAsOwner(
    context,
    workspacePath(context, `/projects/${key}/tasks`),
    { title: 'Matrix task' },
    Created,
  );
};

/** A task in a new project of the fixture's workspace, deleted through the API (restorable); its id. */
const createDeletedTask = async (context: OperationContext): Promise<string> => {
  const { id } = await createTaskInNewProject(context);
  const response = await callApi(
    context.app,
    `/api/v1/tasks/${id}`,
    withBearer(context.ownerBearer, { method: 'DELETE' }),
  );
  if (response.status !== 204) {
    throw new Error(`preparing a call: DELETE /v1/tasks/${id} answered ${response.status}: ${response.text}`);
  }
  return id;
};

/** A comment of the fixture owner's on a task in a new project of the fixture's workspace. */
const createComment = async (context: OperationContext) => {
  const task = await createTaskInNewProject(context);
  return createAsOwner(context, `/v1/tasks/${task.id}/comments`, { body: 'Matrix comment' }, Created);
};

/** A task in a new project of the fixture's workspace that every member of it watches. */
const createTaskEveryoneWatches = async (context: OperationContext) => {
  const task = await createTaskInNewProject(context);
  await asService(context.db, (sql) =>
    sql.query(
      `insert into public.task_watchers (task_id, user_id)
       select $1, m.user_id from public.memberships m where m.workspace_id = $2
       on conflict do nothing`,
      [task.id, context.fixture.id],
    ),
  );
  return task;
};

/** A task in a new project of the fixture's workspace that nobody watches (its creator stopped). */
const createUnwatchedTask = async (context: OperationContext) => {
  const task = await createTaskInNewProject(context);
  await asService(context.db, (sql) =>
    sql.query('delete from public.task_watchers where task_id = $1', [task.id]),
  );
  return task;
};

/**
 * An unread notification for each of the fixture's people (the outsider's in a workspace of their own,
 * since a notification is readable only in its workspace); their ids, the owner's first.
 */
const notifyEveryone = async (context: OperationContext): Promise<string[]> => {
  const { fixture } = context;
  const task = await createTaskInNewProject(context);
  const members = [fixture.owner, fixture.admin, fixture.member, fixture.viewer].map((person) => person.id);
  return asService(context.db, async (sql) => {
    const [elsewhere] = await sql.query<{ id: string }>(
      `with w as (insert into public.workspaces (slug, name, created_by)
                  values ('own-' || substr(md5(random()::text), 1, 8), 'Own', $1) returning id)
       insert into public.memberships (workspace_id, user_id, role) select w.id, $1, 'owner' from w
       returning workspace_id as id`,
      [fixture.outsider.id],
    );
    const rows = await sql.query<{ id: string }>(
      `insert into public.notifications (user_id, workspace_id, task_id, type)
       select m.user_id, $1, $2, 'commented' from unnest($3::uuid[]) with ordinality as m (user_id, rank)
       order by m.rank returning id`,
      [fixture.id, task.id, members],
    );
    const [outsiders] = await sql.query<{ id: string }>(
      `insert into public.notifications (user_id, workspace_id, type)
       values ($1, $2, 'invitation_accepted') returning id`,
      [fixture.outsider.id, elsewhere?.id],
    );
    return [...rows.map((row) => row.id), outsiders?.id ?? ''];
  });
};

/** A signed unsubscribe link's token for the fixture owner's mail of mentions. */
const unsubscribeTokenOfOwner = async ({ db, fixture }: OperationContext): Promise<string> => {
  const key = await db.serviceStatements(selectUnsubscribeSigningKey);
  return signUnsubscribeToken(key, { userId: fixture.owner.id, types: ['mentioned'] });
};

const CreatedUpload = z.object({
  attachment: z.object({ id: z.string() }),
  upload: z.object({ url: z.string() }),
});
const AvatarUploadTarget = z.object({ upload: z.object({ url: z.string() }) });

/** The start of a PNG: what `complete` checks an upload declared `image/png` against. */
const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('matrix'),
]);

/** PUTs bytes to a signed upload URL, as a browser does; fails loudly if Storage refuses. */
async function uploadTo(url: string, bytes: Buffer, type: string): Promise<void> {
  const response = await fetch(url, { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });
  if (!response.ok)
    throw new Error(`preparing a call: the upload answered ${response.status}: ${await response.text()}`);
}

/** An attachment of the fixture owner's on a task in a new project, its PNG uploaded but not completed. */
const createUploadedAttachment = async (context: OperationContext) => {
  const task = await createTaskInNewProject(context);
  const { attachment, upload } = await createAsOwner(
    context,
    `/v1/tasks/${task.id}/attachments`,
    { file_name: 'matrix.png', content_type: 'image/png', size_bytes: PNG_BYTES.length },
    CreatedUpload,
  );
  await uploadTo(upload.url, PNG_BYTES, 'image/png');
  return attachment;
};

/** A ready attachment of the fixture owner's. */
const createReadyAttachment = async (context: OperationContext) => {
  const attachment = await createUploadedAttachment(context);
  const completed = await callApi(
    context.app,
    `/api/v1/attachments/${attachment.id}/complete`,
    withBearer(context.ownerBearer, { method: 'POST' }),
  );
  if (completed.status !== 200) throw new Error(`preparing a call: complete answered ${completed.status}`);
  return attachment;
};

/** The fixture's people, each with a PNG avatar uploaded and not yet completed. */
async function startAvatarUploadsOfEveryone({ app, fixture }: OperationContext): Promise<void> {
  const people = [fixture.owner, fixture.admin, fixture.member, fixture.viewer, fixture.outsider];
  await Promise.all(
    people.map(async (person) => {
      const started = await callApi(
        app,
        '/api/v1/me/avatar',
        withBearer(person.accessToken, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ content_type: 'image/png', size_bytes: PNG_BYTES.length }),
        }),
      );
      if (started.status !== 201)
        throw new Error(`preparing a call: POST /v1/me/avatar answered ${started.status}`);
      await uploadTo(AvatarUploadTarget.parse(started.body).upload.url, PNG_BYTES, 'image/png');
    }),
  );
}

/** The fixture's people, each with an avatar, uploaded and completed through the API. */
async function giveEveryoneAnAvatar(context: OperationContext): Promise<void> {
  await startAvatarUploadsOfEveryone(context);
  const { fixture } = context;
  const people = [fixture.owner, fixture.admin, fixture.member, fixture.viewer, fixture.outsider];
  await Promise.all(
    people.map(async (person) => {
      const completed = await callApi(
        context.app,
        '/api/v1/me/avatar/complete',
        withBearer(person.accessToken, { method: 'POST' }),
      );
      if (completed.status !== 200)
        throw new Error(`preparing a call: complete answered ${completed.status}`);
    }),
  );
}

/** The secret of an invitation's link, `…/invite/<token>`. */
function tokenOf(acceptUrl: string): string {
  const token = acceptUrl.split('/invite/')[1];
  if (!token) throw new Error(`an accept_url without a token: ${acceptUrl}`);
  return token;
}

const nothingToPrepare = async (): Promise<PreparedCall> => ({ params: {} });

export const OPERATIONS: readonly Operation[] = [
  // ── meta and account ──
  {
    operationId: 'getHealth',
    method: 'get',
    path: '/v1/health',
    access: { kind: 'public' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'getLimits',
    method: 'get',
    path: '/v1/meta/limits',
    access: { kind: 'public' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'getMe',
    method: 'get',
    path: '/v1/me',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'updateMe',
    method: 'patch',
    path: '/v1/me',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: async () => ({ params: {}, body: { display_name: 'Renamed' } }),
  },
  {
    operationId: 'createAvatarUpload',
    method: 'post',
    path: '/v1/me/avatar',
    access: { kind: 'signed_in' },
    success: 201,
    prepare: async () => ({ params: {}, body: { content_type: 'image/webp', size_bytes: 2048 } }),
  },
  {
    operationId: 'completeAvatarUpload',
    method: 'post',
    path: '/v1/me/avatar/complete',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: async (context) => {
      await startAvatarUploadsOfEveryone(context);
      return { params: {} };
    },
  },
  {
    operationId: 'deleteAvatar',
    method: 'delete',
    path: '/v1/me/avatar',
    access: { kind: 'signed_in' },
    success: 204,
    prepare: async (context) => {
      await giveEveryoneAnAvatar(context);
      return { params: {} };
    },
  },
  // ── tokens ──
  {
    operationId: 'createApiToken',
    method: 'post',
    path: '/v1/me/tokens',
    access: { kind: 'session_only', ownResource: false },
    success: 201,
    prepare: async () => ({ params: {}, body: { name: 'Matrix', scope: 'write' } }),
  },
  {
    operationId: 'listApiTokens',
    method: 'get',
    path: '/v1/me/tokens',
    access: { kind: 'session_only', ownResource: false },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'getApiToken',
    method: 'get',
    path: '/v1/me/tokens/{id}',
    access: { kind: 'session_only', ownResource: true },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createApiToken(context)).id } }),
  },
  {
    operationId: 'revokeApiToken',
    method: 'delete',
    path: '/v1/me/tokens/{id}',
    access: { kind: 'session_only', ownResource: true },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createApiToken(context)).id } }),
  },
  // ── workspaces ──
  {
    operationId: 'createWorkspace',
    method: 'post',
    path: '/v1/workspaces',
    access: { kind: 'signed_in' },
    success: 201,
    prepare: async () => ({ params: {}, body: { name: 'Matrix', slug: `matrix-${uniqueSuffix()}` } }),
  },
  {
    operationId: 'listWorkspaces',
    method: 'get',
    path: '/v1/workspaces',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'getWorkspace',
    method: 'get',
    path: '/v1/workspaces/{slug}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'updateWorkspace',
    method: 'patch',
    path: '/v1/workspaces/{slug}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context), body: { name: 'Renamed' } }),
  },
  {
    operationId: 'deleteWorkspace',
    method: 'delete',
    path: '/v1/workspaces/{slug}',
    access: { kind: 'workspace', roles: ['owner'] },
    success: 204,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  // ── members ──
  {
    operationId: 'listMembers',
    method: 'get',
    path: '/v1/workspaces/{slug}/members',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'getMember',
    method: 'get',
    path: '/v1/workspaces/{slug}/members/{user_id}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), user_id: context.fixture.admin.id },
    }),
  },
  {
    // The member is demoted to viewer: owners and admins may; the member may not change their own role.
    operationId: 'updateMember',
    method: 'patch',
    path: '/v1/workspaces/{slug}/members/{user_id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), user_id: context.fixture.member.id },
      body: { role: 'viewer' },
    }),
  },
  {
    // The member is removed: owners and admins may, and so may the member themselves (that is leaving).
    operationId: 'removeMember',
    method: 'delete',
    path: '/v1/workspaces/{slug}/members/{user_id}',
    access: { kind: 'workspace', roles: ADMINS, self: 'member' },
    success: 204,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), user_id: context.fixture.member.id },
    }),
    refusals: [
      {
        // The race of two owners leaving at once ends here too (tests/api/members.test.ts).
        name: 'the last owner leaving',
        arrange: async ({ fixture }, call) => ({
          ...call,
          params: { ...call.params, user_id: fixture.owner.id },
        }),
        expected: { status: 409, code: 'last_owner' },
      },
    ],
  },
  // ── invitations ──
  {
    operationId: 'createInvitation',
    method: 'post',
    path: '/v1/workspaces/{slug}/invitations',
    access: { kind: 'workspace', roles: ADMINS },
    success: 201,
    prepare: async (context) => ({
      params: inWorkspace(context),
      body: { email: `invitee-${uniqueSuffix()}@example.com`, role: 'member' },
    }),
    refusals: [
      {
        name: 'an address invited too often in the last 24 hours',
        arrange: async (_, call, db) => {
          await asService(db, (sql) =>
            sql.query(
              `insert into private.invitations_sent (recipient_hash)
               select sha256(convert_to(lower($1), 'UTF8')) from generate_series(1, $2)`,
              [call.body?.['email'], INVITATIONS_PER_RECIPIENT_PER_DAY],
            ),
          );
          return call;
        },
        expected: { status: 429, code: 'rate_limited' },
      },
    ],
  },
  {
    operationId: 'listInvitations',
    method: 'get',
    path: '/v1/workspaces/{slug}/invitations',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'getInvitation',
    method: 'get',
    path: '/v1/workspaces/{slug}/invitations/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createInvitation(context)).id },
    }),
  },
  {
    operationId: 'revokeInvitation',
    method: 'delete',
    path: '/v1/workspaces/{slug}/invitations/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createInvitation(context)).id },
    }),
  },
  {
    // Anyone signed in who holds the token sees the invitation's page (whether it is for them, it says).
    operationId: 'previewInvitation',
    method: 'get',
    path: '/v1/invitations/{token}',
    access: { kind: 'optional_credentials' },
    success: 200,
    prepare: async (context) => {
      const invitation = await createInvitation(context);
      return { params: { token: tokenOf(invitation.accept_url) } };
    },
  },
  {
    operationId: 'acceptInvitation',
    method: 'post',
    path: '/v1/invitations/{token}/accept',
    access: { kind: 'invitee' },
    success: 200,
    prepare: async (context) => {
      const invitation = await createInvitation(context, context.fixture.outsider.email);
      return { params: { token: tokenOf(invitation.accept_url) } };
    },
    refusals: [
      {
        name: 'an invitation whose inviter has been removed since',
        as: 'outsider',
        arrange: async ({ fixture }, call, db) => {
          await asService(db, (sql) =>
            sql.query(
              `update public.memberships set role = 'owner' where workspace_id = $1 and user_id = $2`,
              [fixture.id, fixture.admin.id],
            ),
          );
          await asService(db, (sql) =>
            sql.query('delete from public.memberships where workspace_id = $1 and user_id = $2', [
              fixture.id,
              fixture.owner.id,
            ]),
          );
          return call;
        },
        expected: { status: 410, code: 'invitation_revoked' },
      },
      {
        name: 'an invitee whose e-mail address is not confirmed',
        as: 'outsider',
        arrange: async ({ fixture }, call, db) => {
          await asService(db, (sql) =>
            sql.query('update auth.users set email_confirmed_at = null where id = $1', [fixture.outsider.id]),
          );
          return call;
        },
        expected: { status: 403, code: 'email_not_confirmed' },
      },
    ],
  },
  // ── projects ──
  {
    operationId: 'createProject',
    method: 'post',
    path: '/v1/workspaces/{slug}/projects',
    access: { kind: 'workspace', roles: ADMINS },
    success: 201,
    prepare: async (context) => ({
      params: inWorkspace(context),
      body: { key: uniqueProjectKey(), name: 'Matrix project' },
    }),
  },
  {
    operationId: 'listProjects',
    method: 'get',
    path: '/v1/workspaces/{slug}/projects',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'getProject',
    method: 'get',
    path: '/v1/workspaces/{slug}/projects/{key}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), key: (await createProject(context)).key },
    }),
  },
  {
    operationId: 'updateProject',
    method: 'patch',
    path: '/v1/workspaces/{slug}/projects/{key}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), key: (await createProject(context)).key },
      body: { name: 'Renamed project' },
    }),
  },
  {
    operationId: 'deleteProject',
    method: 'delete',
    path: '/v1/workspaces/{slug}/projects/{key}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 204,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), key: (await createProject(context)).key },
    }),
  },
  // ── labels ──
  {
    operationId: 'createLabel',
    method: 'post',
    path: '/v1/workspaces/{slug}/labels',
    access: { kind: 'workspace', roles: EDITORS },
    success: 201,
    prepare: async (context) => ({
      params: inWorkspace(context),
      body: { name: `label ${uniqueSuffix()}`, color: '#A1B2C3' },
    }),
  },
  {
    operationId: 'listLabels',
    method: 'get',
    path: '/v1/workspaces/{slug}/labels',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'getLabel',
    method: 'get',
    path: '/v1/workspaces/{slug}/labels/{id}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createLabel(context)).id },
    }),
  },
  {
    operationId: 'updateLabel',
    method: 'patch',
    path: '/v1/workspaces/{slug}/labels/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createLabel(context)).id },
      body: { color: '#112233' },
    }),
  },
  {
    operationId: 'deleteLabel',
    method: 'delete',
    path: '/v1/workspaces/{slug}/labels/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 204,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createLabel(context)).id },
    }),
  },
  // ── webhooks ──
  {
    operationId: 'createWebhook',
    method: 'post',
    path: '/v1/workspaces/{slug}/webhooks',
    access: { kind: 'workspace', roles: ADMINS },
    success: 201,
    prepare: async (context) => {
      await clearWebhooks(context);
      return {
        params: inWorkspace(context),
        body: { url: `http://127.0.0.1:9/matrix-${uniqueSuffix()}`, events: ['*'] },
      };
    },
  },
  {
    operationId: 'listWebhooks',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'getWebhook',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createWebhook(context)).id },
    }),
  },
  {
    operationId: 'updateWebhook',
    method: 'patch',
    path: '/v1/workspaces/{slug}/webhooks/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createWebhook(context)).id },
      body: { active: false },
    }),
  },
  {
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/v1/workspaces/{slug}/webhooks/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 204,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createWebhook(context)).id },
    }),
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/v1/workspaces/{slug}/webhooks/{id}/rotate-secret',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createWebhook(context)).id },
    }),
  },
  {
    operationId: 'testWebhook',
    method: 'post',
    path: '/v1/workspaces/{slug}/webhooks/{id}/test',
    access: { kind: 'workspace', roles: ADMINS },
    success: 202,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createWebhook(context)).id },
    }),
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks/{id}/deliveries',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createWebhookWithPing(context)).id },
    }),
  },
  {
    operationId: 'getWebhookDelivery',
    method: 'get',
    path: '/v1/workspaces/{slug}/webhooks/{id}/deliveries/{delivery_id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => {
      const { id, deliveryId } = await createWebhookWithPing(context);
      return { params: { ...inWorkspace(context), id, delivery_id: deliveryId } };
    },
  },
  {
    operationId: 'redeliverWebhookDelivery',
    method: 'post',
    path: '/v1/workspaces/{slug}/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    access: { kind: 'workspace', roles: ADMINS },
    success: 202,
    prepare: async (context) => {
      const { id, deliveryId } = await createWebhookWithPing(context);
      return { params: { ...inWorkspace(context), id, delivery_id: deliveryId } };
    },
  },
  // ── tasks ──
  {
    operationId: 'createTask',
    method: 'post',
    path: '/v1/workspaces/{slug}/projects/{key}/tasks',
    access: { kind: 'workspace', roles: EDITORS },
    success: 201,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), key: (await createProject(context)).key },
      body: { title: 'Matrix task', priority: 'high', label_ids: [(await createLabel(context)).id] },
    }),
  },
  {
    operationId: 'listTasks',
    method: 'get',
    path: '/v1/workspaces/{slug}/projects/{key}/tasks',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), key: (await createProject(context)).key },
    }),
  },
  {
    operationId: 'countProjectTasks',
    method: 'get',
    path: '/v1/workspaces/{slug}/projects/{key}/task-counts',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), key: (await createProject(context)).key },
    }),
  },
  {
    operationId: 'listWorkspaceTasks',
    method: 'get',
    path: '/v1/workspaces/{slug}/tasks',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'countWorkspaceTasks',
    method: 'get',
    path: '/v1/workspaces/{slug}/task-counts',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  {
    operationId: 'getTaskByKey',
    method: 'get',
    path: '/v1/workspaces/{slug}/tasks/{task_key}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => {
      const { key } = await createProject(context);
      const task = await createAsOwner(
        context,
        workspacePath(context, `/projects/${key}/tasks`),
        { title: 'Matrix task' },
        CreatedTask,
      );
      return { params: { ...inWorkspace(context), task_key: task.key } };
    },
  },
  {
    operationId: 'getTask',
    method: 'get',
    path: '/v1/tasks/{id}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createTaskInNewProject(context)).id } }),
  },
  {
    operationId: 'updateTask',
    method: 'patch',
    path: '/v1/tasks/{id}',
    access: { kind: 'workspace', roles: EDITORS },
    success: 200,
    prepare: async (context) => ({
      params: { id: (await createTaskInNewProject(context)).id },
      body: { title: 'Renamed task', status: 'done' },
    }),
  },
  {
    operationId: 'deleteTask',
    method: 'delete',
    path: '/v1/tasks/{id}',
    access: { kind: 'workspace', roles: EDITORS },
    success: 204,
    prepare: async (context) => ({ params: { id: (await createTaskInNewProject(context)).id } }),
  },
  {
    operationId: 'restoreTask',
    method: 'post',
    path: '/v1/tasks/{id}/restore',
    access: { kind: 'workspace', roles: EDITORS },
    success: 200,
    prepare: async (context) => ({ params: { id: await createDeletedTask(context) } }),
    refusals: [
      {
        name: 'a task that is not deleted',
        arrange: async (context, call) => ({
          ...call,
          params: { id: (await createTaskInNewProject(context)).id },
        }),
        expected: { status: 409, code: 'task_not_deleted' },
      },
      {
        name: 'a deleted task whose project was deleted since',
        arrange: async (_context, call, db) => {
          await asService(db, (sql) =>
            sql.query(
              'delete from public.projects where id = (select project_id from private.deleted_tasks where id = $1)',
              [call.params['id']],
            ),
          );
          return call;
        },
        expected: { status: 409, code: 'project_deleted' },
      },
    ],
  },
  {
    operationId: 'moveTask',
    method: 'post',
    path: '/v1/tasks/{id}/move',
    access: { kind: 'workspace', roles: EDITORS },
    success: 200,
    prepare: async (context) => ({
      params: { id: (await createTaskInNewProject(context)).id },
      body: { status: 'in_review', after_id: null },
    }),
  },
  // ── events ──
  {
    operationId: 'listTaskEvents',
    method: 'get',
    path: '/v1/tasks/{id}/events',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createTaskInNewProject(context)).id } }),
  },
  {
    operationId: 'listWorkspaceEvents',
    method: 'get',
    path: '/v1/workspaces/{slug}/events',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  // ── notifications ──
  {
    operationId: 'listNotifications',
    method: 'get',
    path: '/v1/me/notifications',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'countUnreadNotifications',
    method: 'get',
    path: '/v1/me/notifications/unread-count',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'updateNotification',
    method: 'patch',
    path: '/v1/me/notifications/{id}',
    access: { kind: 'signed_in', ownResource: true },
    success: 200,
    prepare: async (context) => ({
      params: { id: (await notifyEveryone(context))[0] ?? '' },
      body: { read: true },
    }),
  },
  {
    operationId: 'updateNotifications',
    method: 'post',
    path: '/v1/me/notifications/batch',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: async (context) => ({
      params: {},
      body: { ids: await notifyEveryone(context), archived: true },
    }),
  },
  {
    operationId: 'markAllNotificationsRead',
    method: 'post',
    path: '/v1/me/notifications/read-all',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: async (context) => {
      await notifyEveryone(context);
      return { params: {}, body: {} };
    },
  },
  {
    operationId: 'getNotificationSettings',
    method: 'get',
    path: '/v1/me/notification-settings',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'updateNotificationSettings',
    method: 'put',
    path: '/v1/me/notification-settings',
    access: { kind: 'signed_in' },
    success: 200,
    prepare: async () => ({ params: {}, body: { deliveries: { commented: 'email_digest' } } }),
  },
  {
    operationId: 'unsubscribeFromMail',
    method: 'post',
    path: '/v1/notification-unsubscribe/{token}',
    access: { kind: 'public' },
    success: 200,
    prepare: async (context) => ({ params: { token: await unsubscribeTokenOfOwner(context) } }),
  },
  {
    operationId: 'sendNotificationMail',
    method: 'post',
    path: '/v1/internal/notification-mail',
    access: { kind: 'service' },
    success: 200,
    prepare: nothingToPrepare,
  },
  {
    operationId: 'listTaskWatchers',
    method: 'get',
    path: '/v1/tasks/{id}/watchers',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createTaskInNewProject(context)).id } }),
  },
  {
    operationId: 'watchTask',
    method: 'put',
    path: '/v1/tasks/{id}/watch',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createUnwatchedTask(context)).id } }),
  },
  {
    operationId: 'unwatchTask',
    method: 'delete',
    path: '/v1/tasks/{id}/watch',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createTaskEveryoneWatches(context)).id } }),
  },
  // ── comments ──
  {
    operationId: 'listComments',
    method: 'get',
    path: '/v1/tasks/{id}/comments',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createTaskInNewProject(context)).id } }),
  },
  {
    operationId: 'createComment',
    method: 'post',
    path: '/v1/tasks/{id}/comments',
    access: { kind: 'workspace', roles: EDITORS },
    success: 201,
    prepare: async (context) => ({
      params: { id: (await createTaskInNewProject(context)).id },
      body: { body: 'A **matrix** comment' },
    }),
  },
  {
    operationId: 'getComment',
    method: 'get',
    path: '/v1/comments/{id}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createComment(context)).id } }),
  },
  {
    // The comment is the owner's: only its author may edit it, whatever the others' roles.
    operationId: 'updateComment',
    method: 'patch',
    path: '/v1/comments/{id}',
    access: { kind: 'workspace', roles: ['owner'] },
    success: 200,
    prepare: async (context) => ({
      params: { id: (await createComment(context)).id },
      body: { body: 'Edited matrix comment' },
    }),
  },
  {
    // The comment is the owner's: its author may delete it, and so may admins.
    operationId: 'deleteComment',
    method: 'delete',
    path: '/v1/comments/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 204,
    prepare: async (context) => ({ params: { id: (await createComment(context)).id } }),
  },
  // ── attachments ──
  {
    operationId: 'listAttachments',
    method: 'get',
    path: '/v1/tasks/{id}/attachments',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createTaskInNewProject(context)).id } }),
  },
  {
    operationId: 'createAttachment',
    method: 'post',
    path: '/v1/tasks/{id}/attachments',
    access: { kind: 'workspace', roles: EDITORS },
    success: 201,
    prepare: async (context) => ({
      params: { id: (await createTaskInNewProject(context)).id },
      body: { file_name: 'build.log', content_type: 'text/plain', size_bytes: 1024 },
    }),
    refusals: [
      {
        name: 'a declared file over 25 MiB',
        arrange: async (_, call) => ({ ...call, body: { ...call.body, size_bytes: 25 * 1024 * 1024 + 1 } }),
        expected: { status: 413, code: 'payload_too_large' },
      },
      {
        name: 'an SVG image',
        arrange: async (_, call) => ({ ...call, body: { ...call.body, content_type: 'image/svg+xml' } }),
        expected: { status: 415, code: 'unsupported_media_type' },
      },
      {
        // Storage holds the workspace's quota already, in objects no attachment names (a PUT after a refusal).
        name: "a file past the workspace's storage quota",
        arrange: async ({ fixture }, call, db) => {
          await asService(db, (sql) =>
            sql.query(
              `insert into storage.objects (bucket_id, name, metadata)
               values ('attachments', $1, jsonb_build_object('size', $2::bigint))`,
              [`${fixture.id}/${randomUUID()}/${randomUUID()}`, WORKSPACE_STORAGE_BYTES - 1023],
            ),
          );
          return call;
        },
        expected: { status: 409, code: 'limit_reached' },
      },
      {
        name: `the caller's ${PENDING_UPLOADS_PER_USER} uploads pending elsewhere`,
        arrange: async (context, call, db) => {
          const task = await createTaskInNewProject(context);
          await asService(db, (sql) =>
            sql.query(
              `insert into public.attachments
                 (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, uploaded_by)
               select i.id, $1::uuid, $2::uuid, $1::text || '/' || $2::text || '/' || i.id::text, 'a.txt', 'text/plain', 1, $3
               from (select gen_random_uuid() as id from generate_series(1, $4)) i`,
              [context.fixture.id, task.id, context.fixture.owner.id, PENDING_UPLOADS_PER_USER],
            ),
          );
          return call;
        },
        expected: { status: 409, code: 'limit_reached' },
      },
    ],
  },
  {
    operationId: 'getAttachment',
    method: 'get',
    path: '/v1/attachments/{id}',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createReadyAttachment(context)).id } }),
  },
  {
    // The upload is the owner's: only who started it may complete it.
    operationId: 'completeAttachment',
    method: 'post',
    path: '/v1/attachments/{id}/complete',
    access: { kind: 'workspace', roles: ['owner'] },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createUploadedAttachment(context)).id } }),
  },
  {
    operationId: 'getAttachmentDownload',
    method: 'get',
    path: '/v1/attachments/{id}/download',
    access: { kind: 'workspace', roles: WORKSPACE_ROLES },
    success: 200,
    prepare: async (context) => ({ params: { id: (await createReadyAttachment(context)).id } }),
  },
  {
    // The attachment is the owner's: its uploader may delete it, and so may admins.
    operationId: 'deleteAttachment',
    method: 'delete',
    path: '/v1/attachments/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 204,
    prepare: async (context) => ({ params: { id: (await createReadyAttachment(context)).id } }),
  },
  // ── export ──
  {
    operationId: 'exportWorkspace',
    method: 'get',
    path: '/v1/workspaces/{slug}/export',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({ params: inWorkspace(context) }),
  },
  // ── imports ──
  {
    operationId: 'createImport',
    method: 'post',
    path: '/v1/workspaces/{slug}/imports',
    access: { kind: 'workspace', roles: ADMINS },
    success: 201,
    prepare: async (context) => ({
      params: inWorkspace(context),
      multipart: await importIntoExistingProject(context),
    }),
  },
  {
    operationId: 'getImport',
    method: 'get',
    path: '/v1/workspaces/{slug}/imports/{id}',
    access: { kind: 'workspace', roles: ADMINS },
    success: 200,
    prepare: async (context) => ({
      params: { ...inWorkspace(context), id: (await createImport(context)).id },
    }),
  },
];
