/**
 * docs/product.md#roles as row-level security, proven in SQL: for every table in `public`, each caller (a
 * member in each role, a signed-in outsider, anon) × each command gets exactly what the spec allows. A table
 * without rules here fails the coverage test, so a new table cannot skip it.
 */
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { WORKSPACE_STORAGE_BYTES } from '../../supabase/functions/_shared/limits.ts';
import { ensureLiveSession } from '../support/live-session.ts';
import { useTestDatabaseClient } from '../support/test-database.ts';
import { CALLERS, createRlsFixture, probe, type Caller, type RlsFixture } from './rls-fixture.ts';

type Command = 'select' | 'insert' | 'update' | 'delete';

interface Rule {
  table: string;
  command: Command;
  /** What the probe tries, in words. */
  attempt: string;
  /** The statement and its values, given the fixture and the caller's own user id. */
  statement: (fixture: RlsFixture, me: string) => [string, unknown[]];
  allowed: readonly Caller[];
}

const MEMBERS: readonly Caller[] = ['owner', 'admin', 'member', 'viewer'];
const ADMINS: readonly Caller[] = ['owner', 'admin'];
const EDITORS: readonly Caller[] = ['owner', 'admin', 'member'];
const NOBODY: readonly Caller[] = [];

const OBJECT = `select 1 from storage.objects where bucket_id = 'attachments' and name = $1`;
/** A pending attachment of `target`'s, uploaded, and an object no attachment names, both on the task. */
const PENDING_ATTACHMENT_ID = '3f1d9a52-7c4e-4b8a-9e21-5a6c0d7b8e13';
const ORPHAN_OBJECT_ID = '9b2e4c71-0a3f-4d5e-8c6b-1f7a2e9d4c05';
const MIB = 1024 * 1024;

/**
 * The attachments' objects in Storage: the ready attachment `target`'s, the pending one's, and the orphan,
 * which fills the workspace's storage to 1 MiB short of its quota.
 */
async function insertAttachmentObjects(db: pg.Client, f: RlsFixture): Promise<void> {
  const folder = `${f.workspaceId}/${f.taskId}`;
  await db.query(
    `insert into public.attachments (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, uploaded_by)
     values ($1, $2, $3, $4, 'later.png', 'image/png', 10, $5)`,
    [PENDING_ATTACHMENT_ID, f.workspaceId, f.taskId, `${folder}/${PENDING_ATTACHMENT_ID}`, f.users.target],
  );
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata)
     select 'attachments', o.name, jsonb_build_object('size', o.size, 'mimetype', 'image/png')
     from unnest($1::text[], $2::bigint[]) as o (name, size)`,
    [
      [
        `${folder}/${f.attachmentIds.target}`,
        `${folder}/${PENDING_ATTACHMENT_ID}`,
        `${folder}/${ORPHAN_OBJECT_ID}`,
      ],
      [1234, 10, WORKSPACE_STORAGE_BYTES - MIB - 1234 - 10],
    ],
  );
}

const RULES: readonly Rule[] = [
  // workspaces
  {
    table: 'workspaces',
    command: 'select',
    attempt: 'read the workspace',
    statement: (f) => ['select 1 from public.workspaces where id = $1', [f.workspaceId]],
    allowed: MEMBERS,
  },
  {
    table: 'workspaces',
    command: 'insert',
    attempt: 'insert a workspace directly (private.create_workspace is the way)',
    statement: (_, me) => [
      `insert into public.workspaces (name, slug, created_by) values ('New', 'rls-new', $1)`,
      [me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'workspaces',
    command: 'update',
    attempt: 'rename the workspace',
    statement: (f) => [`update public.workspaces set name = 'Renamed' where id = $1`, [f.workspaceId]],
    allowed: ADMINS,
  },
  {
    table: 'workspaces',
    command: 'delete',
    attempt: 'delete the workspace',
    statement: (f) => ['delete from public.workspaces where id = $1', [f.workspaceId]],
    allowed: ['owner'],
  },
  // memberships
  {
    table: 'memberships',
    command: 'select',
    attempt: "read the workspace's members",
    statement: (f) => ['select 1 from public.memberships where workspace_id = $1', [f.workspaceId]],
    allowed: MEMBERS,
  },
  {
    table: 'memberships',
    command: 'insert',
    attempt: 'join as owner without an invitation',
    statement: (f, me) => [
      `insert into public.memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`,
      [f.workspaceId, me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'memberships',
    command: 'update',
    attempt: "change a member's role",
    statement: (f) => [
      `update public.memberships set role = 'viewer' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.target],
    ],
    allowed: ADMINS,
  },
  {
    table: 'memberships',
    command: 'update',
    attempt: 'demote the only owner (admins never touch owners; the last owner stays)',
    statement: (f) => [
      `update public.memberships set role = 'admin' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.owner],
    ],
    allowed: NOBODY,
  },
  {
    table: 'memberships',
    command: 'update',
    attempt: 'make a member an owner (admins never grant owner)',
    statement: (f) => [
      `update public.memberships set role = 'owner' where workspace_id = $1 and user_id = $2`,
      [f.workspaceId, f.users.target],
    ],
    allowed: ['owner'],
  },
  {
    table: 'memberships',
    command: 'delete',
    attempt: 'remove a member',
    statement: (f) => [
      'delete from public.memberships where workspace_id = $1 and user_id = $2',
      [f.workspaceId, f.users.target],
    ],
    allowed: ADMINS,
  },
  {
    table: 'memberships',
    command: 'delete',
    attempt: 'leave (the last owner cannot)',
    statement: (f, me) => [
      'delete from public.memberships where workspace_id = $1 and user_id = $2',
      [f.workspaceId, me],
    ],
    allowed: ['admin', 'member', 'viewer'],
  },
  // invitations
  {
    table: 'invitations',
    command: 'select',
    attempt: "read the workspace's invitations",
    statement: (f) => ['select 1 from public.invitations where id = $1', [f.invitationId]],
    allowed: ADMINS,
  },
  {
    table: 'invitations',
    command: 'insert',
    attempt: 'invite a member directly (only private.create_invitation, which holds the limits, invites)',
    statement: (f, me) => [
      `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
       values ($1, 'new@rls.test', 'member', sha256('new'), $2)`,
      [f.workspaceId, me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'invitations',
    command: 'insert',
    attempt: 'invite an owner directly',
    statement: (f, me) => [
      `insert into public.invitations (workspace_id, email, role, token_hash, invited_by)
       values ($1, 'new-owner@rls.test', 'owner', sha256('new-owner'), $2)`,
      [f.workspaceId, me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'invitations',
    command: 'update',
    attempt: 'revoke an invitation',
    statement: (f) => [`update public.invitations set status = 'revoked' where id = $1`, [f.invitationId]],
    allowed: ADMINS,
  },
  {
    table: 'invitations',
    command: 'delete',
    attempt: 'delete an invitation (they are revoked, never deleted)',
    statement: (f) => ['delete from public.invitations where id = $1', [f.invitationId]],
    allowed: NOBODY,
  },
  // projects
  {
    table: 'projects',
    command: 'select',
    attempt: 'read a project',
    statement: (f) => ['select 1 from public.projects where id = $1', [f.projectId]],
    allowed: MEMBERS,
  },
  {
    table: 'projects',
    command: 'insert',
    attempt: 'create a project',
    statement: (f, me) => [
      `insert into public.projects (workspace_id, key, name, created_by) values ($1, 'NEW', 'New', $2)`,
      [f.workspaceId, me],
    ],
    allowed: ADMINS,
  },
  {
    table: 'projects',
    command: 'update',
    attempt: 'rename a project',
    statement: (f) => [`update public.projects set name = 'Renamed' where id = $1`, [f.projectId]],
    allowed: ADMINS,
  },
  {
    table: 'projects',
    command: 'delete',
    attempt: 'delete a project',
    statement: (f) => ['delete from public.projects where id = $1', [f.projectId]],
    allowed: ADMINS,
  },
  // labels
  {
    table: 'labels',
    command: 'select',
    attempt: 'read a label',
    statement: (f) => ['select 1 from public.labels where id = $1', [f.labelId]],
    allowed: MEMBERS,
  },
  {
    table: 'labels',
    command: 'insert',
    attempt: 'create a label',
    statement: (f, me) => [
      `insert into public.labels (workspace_id, name, color, created_by) values ($1, 'new', '#000000', $2)`,
      [f.workspaceId, me],
    ],
    allowed: EDITORS,
  },
  {
    table: 'labels',
    command: 'update',
    attempt: 'recolour a label',
    statement: (f) => [`update public.labels set color = '#ffffff' where id = $1`, [f.labelId]],
    allowed: ADMINS,
  },
  {
    table: 'labels',
    command: 'delete',
    attempt: 'delete a label',
    statement: (f) => ['delete from public.labels where id = $1', [f.labelId]],
    allowed: ADMINS,
  },
  // tasks: members read; editors create (as themselves), change and delete; number and project are fixed
  {
    table: 'tasks',
    command: 'select',
    attempt: 'read a task',
    statement: (f) => ['select 1 from public.tasks where id = $1', [f.taskId]],
    allowed: MEMBERS,
  },
  {
    table: 'tasks',
    command: 'insert',
    attempt: 'create a task as myself',
    statement: (f, me) => [
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'New', 'z0', $2)`,
      [f.projectId, me],
    ],
    allowed: EDITORS,
  },
  {
    table: 'tasks',
    command: 'insert',
    attempt: "create a task in a fellow member's name",
    statement: (f) => [
      `insert into public.tasks (project_id, title, position, created_by) values ($1, 'New', 'z1', $2)`,
      [f.projectId, f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'tasks',
    command: 'update',
    attempt: 'retitle a task',
    statement: (f) => [`update public.tasks set title = 'Renamed' where id = $1`, [f.taskId]],
    allowed: EDITORS,
  },
  {
    table: 'tasks',
    command: 'update',
    attempt: 'renumber a task (numbers are given once)',
    statement: (f) => ['update public.tasks set number = 99 where id = $1', [f.taskId]],
    allowed: NOBODY,
  },
  {
    table: 'tasks',
    command: 'delete',
    attempt: 'delete a task',
    statement: (f) => ['delete from public.tasks where id = $1', [f.taskId]],
    allowed: EDITORS,
  },
  // comments: members read; editors comment as themselves and edit their own; authors (still editors)
  // and admins delete softly through private.delete_comment; no row is ever deleted outright
  {
    table: 'comments',
    command: 'select',
    attempt: "read a fellow member's comment",
    statement: (f) => ['select 1 from public.comments where id = $1', [f.commentIds.target]],
    allowed: MEMBERS,
  },
  {
    table: 'comments',
    command: 'insert',
    attempt: 'comment on a task as myself',
    statement: (f, me) => [
      `insert into public.comments (task_id, author_id, body) values ($1, $2, 'Looks good')`,
      [f.taskId, me],
    ],
    allowed: EDITORS,
  },
  {
    table: 'comments',
    command: 'insert',
    attempt: 'comment in the name of a fellow member',
    statement: (f) => [
      `insert into public.comments (task_id, author_id, body) values ($1, $2, 'Not me')`,
      [f.taskId, f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'comments',
    command: 'update',
    attempt: 'edit my own comment',
    statement: (f, me) => [
      `update public.comments set body = 'Edited' where task_id = $1 and author_id = $2`,
      [f.taskId, me],
    ],
    allowed: EDITORS,
  },
  {
    table: 'comments',
    command: 'update',
    attempt: "edit a fellow member's comment",
    statement: (f) => [`update public.comments set body = 'Reworded' where id = $1`, [f.commentIds.target]],
    allowed: NOBODY,
  },
  {
    table: 'comments',
    command: 'update',
    attempt: 'mark my own comment deleted directly (private.delete_comment is the way)',
    statement: (f, me) => [
      'update public.comments set deleted_at = now() where task_id = $1 and author_id = $2',
      [f.taskId, me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'comments',
    command: 'update',
    attempt: 'delete my own comment with private.delete_comment',
    statement: (f, me) => [
      `select 1 from private.delete_comment(
         (select id from public.comments where task_id = $1 and author_id = $2)) d
       where d.deleted_at is not null`,
      [f.taskId, me],
    ],
    allowed: EDITORS,
  },
  {
    table: 'comments',
    command: 'update',
    attempt: "delete a fellow member's comment with private.delete_comment",
    statement: (f) => [
      'select 1 from private.delete_comment($1) d where d.deleted_at is not null',
      [f.commentIds.target],
    ],
    allowed: ADMINS,
  },
  {
    table: 'comments',
    command: 'delete',
    attempt: 'delete my own comment outright (comments are deleted softly)',
    statement: (f, me) => [
      'delete from public.comments where task_id = $1 and author_id = $2',
      [f.taskId, me],
    ],
    allowed: NOBODY,
  },
  // attachments: members read; nobody writes the table but through the private functions, which let
  // editors attach files, and uploaders (still editors) and admins delete them
  {
    table: 'attachments',
    command: 'select',
    attempt: "read the task's attachments",
    statement: (f) => ['select 1 from public.attachments where id = $1', [f.attachmentIds.target]],
    allowed: MEMBERS,
  },
  {
    table: 'attachments',
    command: 'insert',
    attempt: 'insert a ready attachment directly (private.create_attachment is the way)',
    statement: (f, me) => [
      `insert into public.attachments
         (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, status, uploaded_by, ready_at)
       values ($3::uuid, $1::uuid, $2::uuid, $1::text || '/' || $2::text || '/' || $3::text, 'x.png', 'image/png', 1, 'ready', $4, now())`,
      [f.workspaceId, f.taskId, '6b3f5f7e-0d1c-4c55-9a43-2f7a1f0e9b10', me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'attachments',
    command: 'insert',
    attempt: 'attach a file through private.create_attachment',
    statement: (f) => [
      `select 1 from private.create_attachment($1, 'log.txt', 'text/plain', 10)`,
      [f.taskId],
    ],
    allowed: EDITORS,
  },
  {
    table: 'attachments',
    command: 'insert',
    attempt: "attach a file past the workspace's storage quota (1 MiB is left)",
    statement: (f) => [
      `select 1 from private.create_attachment($1, 'build.zip', 'application/zip', 1048577)`,
      [f.taskId],
    ],
    allowed: NOBODY,
  },
  {
    table: 'attachments',
    command: 'update',
    attempt: 'mark my own attachment ready or rename it directly',
    statement: (_, me) => [
      `update public.attachments set file_name = 'renamed.png', status = 'ready' where uploaded_by = $1`,
      [me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'attachments',
    command: 'delete',
    attempt: 'delete my own attachment directly',
    statement: (_, me) => ['delete from public.attachments where uploaded_by = $1', [me]],
    allowed: NOBODY,
  },
  {
    table: 'attachments',
    command: 'delete',
    attempt: 'delete my own attachment through private.delete_attachment',
    statement: (f, me) => [
      `select 1 from private.delete_attachment(
         (select id from public.attachments where uploaded_by = $1 and task_id = $2))`,
      [me, f.taskId],
    ],
    allowed: EDITORS,
  },
  {
    table: 'attachments',
    command: 'delete',
    attempt: "delete another's attachment through private.delete_attachment",
    statement: (f) => ['select 1 from private.delete_attachment($1)', [f.attachmentIds.target]],
    allowed: ADMINS,
  },
  // storage.objects of the attachments bucket: what Storage lets a person read (download, sign) as
  // themselves; only what `complete` checked (docs/decisions/0031)
  {
    table: 'storage.objects',
    command: 'select',
    attempt: "read a ready attachment's object straight from Storage",
    statement: (f) => [OBJECT, [`${f.workspaceId}/${f.taskId}/${f.attachmentIds.target}`]],
    allowed: MEMBERS,
  },
  {
    table: 'storage.objects',
    command: 'select',
    attempt: "read an upload complete has not checked (a pending attachment's object)",
    statement: (f) => [OBJECT, [`${f.workspaceId}/${f.taskId}/${PENDING_ATTACHMENT_ID}`]],
    allowed: NOBODY,
  },
  {
    table: 'storage.objects',
    command: 'select',
    attempt: "read an object no attachment names (a deleted task's file, a PUT after a refusal)",
    statement: (f) => [OBJECT, [`${f.workspaceId}/${f.taskId}/${ORPHAN_OBJECT_ID}`]],
    allowed: NOBODY,
  },
  // profiles
  {
    table: 'task_watchers',
    command: 'select',
    attempt: 'see that a fellow member watches a task',
    statement: (f) => [
      'select 1 from public.task_watchers where task_id = $1 and user_id = $2',
      [f.taskId, f.users.target],
    ],
    allowed: MEMBERS,
  },
  {
    table: 'task_watchers',
    command: 'insert',
    attempt: 'watch a task myself (after stopping)',
    statement: (f, me) => [
      `with gone as (delete from public.task_watchers where task_id = $1 and user_id = $2 returning task_id)
       insert into public.task_watchers (task_id, user_id) select $1, $2 from gone`,
      [f.taskId, me],
    ],
    allowed: MEMBERS,
  },
  {
    table: 'task_watchers',
    command: 'insert',
    attempt: 'make a fellow member watch a task',
    statement: (f) => [
      `insert into public.task_watchers (task_id, user_id) values ($1, $2)`,
      [f.taskId, f.users.outsider],
    ],
    allowed: NOBODY,
  },
  {
    table: 'task_watchers',
    command: 'update',
    attempt: 'move my watch to a fellow member',
    statement: (f, me) => [
      'update public.task_watchers set user_id = $3 where task_id = $1 and user_id = $2',
      [f.taskId, me, f.users.outsider],
    ],
    allowed: NOBODY,
  },
  {
    table: 'task_watchers',
    command: 'delete',
    attempt: 'stop watching a task myself',
    statement: (f, me) => [
      'delete from public.task_watchers where task_id = $1 and user_id = $2',
      [f.taskId, me],
    ],
    allowed: MEMBERS,
  },
  {
    table: 'task_watchers',
    command: 'delete',
    attempt: 'make a fellow member stop watching',
    statement: (f) => [
      'delete from public.task_watchers where task_id = $1 and user_id = $2',
      [f.taskId, f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'webhooks',
    command: 'select',
    attempt: "read the workspace's webhooks",
    statement: (f) => ['select 1 from public.webhooks where id = $1', [f.webhookId]],
    allowed: ADMINS,
  },
  {
    table: 'webhooks',
    command: 'insert',
    attempt: 'add a webhook',
    statement: (f) => [
      `insert into public.webhooks (workspace_id, url, events) values ($1, 'https://hooks.example.com/new', '{task.*}')`,
      [f.workspaceId],
    ],
    allowed: ADMINS,
  },
  {
    table: 'webhooks',
    command: 'update',
    attempt: 'point a webhook elsewhere',
    statement: (f) => [
      `update public.webhooks set url = 'https://hooks.example.com/moved' where id = $1`,
      [f.webhookId],
    ],
    allowed: ADMINS,
  },
  {
    table: 'webhooks',
    command: 'update',
    attempt: 'clear why the dispatcher stopped a webhook, leaving it stopped',
    statement: (f) => [`update public.webhooks set failing_since = null where id = $1`, [f.webhookId]],
    allowed: NOBODY,
  },
  {
    table: 'webhooks',
    command: 'delete',
    attempt: 'remove a webhook',
    statement: (f) => ['delete from public.webhooks where id = $1', [f.webhookId]],
    allowed: ADMINS,
  },
  {
    table: 'imports',
    command: 'select',
    attempt: "read the workspace's imports",
    statement: (f) => ['select 1 from public.imports where id = $1', [f.importId]],
    allowed: ADMINS,
  },
  {
    table: 'imports',
    command: 'insert',
    attempt: 'record an import',
    statement: (f) => [
      `insert into public.imports (workspace_id, source, projects, counts, problems) values ($1, 'csv', '[]', '{}', '[]')`,
      [f.workspaceId],
    ],
    allowed: ADMINS,
  },
  {
    table: 'imports',
    command: 'update',
    attempt: 'rewrite what an import did',
    statement: (f) => [`update public.imports set counts = '{"tasks": 0}' where id = $1`, [f.importId]],
    allowed: NOBODY,
  },
  {
    table: 'imports',
    command: 'delete',
    attempt: 'erase an import from the record',
    statement: (f) => ['delete from public.imports where id = $1', [f.importId]],
    allowed: NOBODY,
  },
  {
    table: 'webhook_deliveries',
    command: 'select',
    attempt: "read a webhook's delivery log",
    statement: (f) => ['select 1 from public.webhook_deliveries where id = $1', [f.webhookDeliveryId]],
    allowed: ADMINS,
  },
  {
    table: 'webhook_deliveries',
    command: 'insert',
    attempt: 'queue a delivery of my own making (private.queue_webhook_ping is the way)',
    statement: (f) => [
      `insert into public.webhook_deliveries (webhook_id, workspace_id, event_type, payload) values ($1, $2, 'ping', '{}')`,
      [f.webhookId, f.workspaceId],
    ],
    allowed: NOBODY,
  },
  {
    table: 'webhook_deliveries',
    command: 'update',
    attempt: 'mark a delivery succeeded (private.redeliver_webhook_delivery is the way to send it again)',
    statement: (f) => [
      `update public.webhook_deliveries set status = 'succeeded' where id = $1`,
      [f.webhookDeliveryId],
    ],
    allowed: NOBODY,
  },
  {
    table: 'webhook_deliveries',
    command: 'delete',
    attempt: 'erase a delivery from the log',
    statement: (f) => ['delete from public.webhook_deliveries where id = $1', [f.webhookDeliveryId]],
    allowed: NOBODY,
  },
  {
    table: 'notifications',
    command: 'select',
    attempt: 'read my own notifications',
    statement: (_, me) => ['select 1 from public.notifications where user_id = $1', [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'notifications',
    command: 'select',
    attempt: "read a fellow member's notification",
    statement: (f) => ['select 1 from public.notifications where id = $1', [f.notificationId]],
    allowed: NOBODY,
  },
  {
    table: 'notifications',
    command: 'insert',
    attempt: 'notify a fellow member',
    statement: (f) => [
      `insert into public.notifications (user_id, workspace_id, task_id, type) values ($1, $2, $3, 'mentioned')`,
      [f.users.target, f.workspaceId, f.taskId],
    ],
    allowed: NOBODY,
  },
  {
    table: 'notifications',
    command: 'update',
    attempt: 'mark my own notifications read',
    statement: (_, me) => ['update public.notifications set read_at = now() where user_id = $1', [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'notifications',
    command: 'update',
    attempt: "mark a fellow member's notification read",
    statement: (f) => ['update public.notifications set read_at = now() where id = $1', [f.notificationId]],
    allowed: NOBODY,
  },
  {
    table: 'notifications',
    command: 'update',
    attempt: 'turn my own notification into another one',
    statement: (_, me) => [`update public.notifications set type = 'assigned' where user_id = $1`, [me]],
    allowed: NOBODY,
  },
  {
    table: 'notifications',
    command: 'delete',
    attempt: 'delete my own notifications (they are archived)',
    statement: (_, me) => ['delete from public.notifications where user_id = $1', [me]],
    allowed: NOBODY,
  },
  {
    table: 'notification_settings',
    command: 'select',
    attempt: 'read my own notification settings',
    statement: (_, me) => ['select 1 from public.notification_settings where user_id = $1', [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'notification_settings',
    command: 'select',
    attempt: "read a fellow member's notification settings",
    statement: (f) => ['select 1 from public.notification_settings where user_id = $1', [f.users.target]],
    allowed: NOBODY,
  },
  {
    table: 'notification_settings',
    command: 'insert',
    attempt: 'choose how I hear of mentions',
    statement: (_, me) => [
      `insert into public.notification_settings (user_id, type, delivery) values ($1, 'mentioned', 'off')`,
      [me],
    ],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'notification_settings',
    command: 'insert',
    attempt: 'choose for a fellow member',
    statement: (f) => [
      `insert into public.notification_settings (user_id, type, delivery) values ($1, 'mentioned', 'off')`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'notification_settings',
    command: 'update',
    attempt: 'change how I hear of comments',
    statement: (_, me) => [
      `update public.notification_settings set delivery = 'off' where user_id = $1`,
      [me],
    ],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'notification_settings',
    command: 'update',
    attempt: "change a fellow member's settings",
    statement: (f) => [
      `update public.notification_settings set delivery = 'off' where user_id = $1`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'notification_settings',
    command: 'delete',
    attempt: 'delete my own settings (set them instead)',
    statement: (_, me) => ['delete from public.notification_settings where user_id = $1', [me]],
    allowed: NOBODY,
  },
  {
    table: 'profiles',
    command: 'select',
    attempt: "read a fellow member's profile",
    statement: (f) => ['select 1 from public.profiles where user_id = $1', [f.users.target]],
    allowed: MEMBERS,
  },
  {
    table: 'profiles',
    command: 'select',
    attempt: 'read my own profile',
    statement: (_, me) => ['select 1 from public.profiles where user_id = $1', [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'profiles',
    command: 'insert',
    attempt: 'insert a profile (the sign-up trigger does)',
    statement: (_, me) => [`insert into public.profiles (user_id, display_name) values ($1, 'Me')`, [me]],
    allowed: NOBODY,
  },
  {
    table: 'profiles',
    command: 'update',
    attempt: "change a fellow member's display name",
    statement: (f) => [
      `update public.profiles set display_name = 'Hacked' where user_id = $1`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'profiles',
    command: 'update',
    attempt: 'change my own display name',
    statement: (_, me) => [`update public.profiles set display_name = 'Me' where user_id = $1`, [me]],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'profiles',
    command: 'update',
    attempt: 'point my own avatar at any path (only the avatar upload may)',
    statement: (_, me) => [
      `update public.profiles set avatar_path = 'someone-else/avatar' where user_id = $1`,
      [me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'profiles',
    command: 'delete',
    attempt: 'delete my own profile (it goes with the account)',
    statement: (_, me) => ['delete from public.profiles where user_id = $1', [me]],
    allowed: NOBODY,
  },
  // api_tokens: people see, create and revoke their own only; nobody reads a hash or deletes a row
  {
    table: 'api_tokens',
    command: 'select',
    attempt: "read a fellow member's API token",
    statement: (f) => ['select 1 from public.api_tokens where id = $1', [f.apiTokenId]],
    allowed: NOBODY,
  },
  {
    table: 'api_tokens',
    command: 'insert',
    attempt: 'create an API token for myself',
    statement: (_, me) => [
      `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, 'Mine', 'tl_pat_BBBB', sha256($2::bytea), 'read', now() + interval '1 day')`,
      [me, `rls-mine-${me}`],
    ],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'api_tokens',
    command: 'insert',
    attempt: 'create an API token for a fellow member',
    statement: (f) => [
      `insert into public.api_tokens (user_id, name, prefix, token_hash, scope, expires_at)
       values ($1, 'Theirs', 'tl_pat_CCCC', sha256('rls-theirs'), 'write', now() + interval '1 day')`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'api_tokens',
    command: 'update',
    attempt: "revoke a fellow member's API token",
    statement: (f) => ['update public.api_tokens set revoked_at = now() where id = $1', [f.apiTokenId]],
    allowed: NOBODY,
  },
  {
    table: 'api_tokens',
    command: 'delete',
    attempt: 'delete an API token (revoking is the way)',
    statement: (f) => ['delete from public.api_tokens where id = $1', [f.apiTokenId]],
    allowed: NOBODY,
  },
  // idempotency_keys: the API records a caller's keys as the caller; nobody touches another's
  {
    table: 'idempotency_keys',
    command: 'select',
    attempt: "read a fellow member's Idempotency-Key record",
    statement: (f) => ['select 1 from public.idempotency_keys where id = $1', [f.idempotencyKeyId]],
    allowed: NOBODY,
  },
  {
    table: 'idempotency_keys',
    command: 'insert',
    attempt: 'record an Idempotency-Key of my own',
    statement: (_, me) => [
      `insert into public.idempotency_keys (principal, key, request_hash, response, expires_at)
       values ('user:' || $1, 'mine', repeat('b', 64), '{}', now() + interval '1 day')`,
      [me],
    ],
    allowed: [...MEMBERS, 'outsider'],
  },
  {
    table: 'idempotency_keys',
    command: 'insert',
    attempt: "record an Idempotency-Key in a fellow member's key space",
    statement: (f) => [
      `insert into public.idempotency_keys (principal, key, request_hash, response, expires_at)
       values ('user:' || $1, 'theirs', repeat('c', 64), '{}', now() + interval '1 day')`,
      [f.users.target],
    ],
    allowed: NOBODY,
  },
  {
    table: 'idempotency_keys',
    command: 'update',
    attempt: "rewrite a fellow member's Idempotency-Key record",
    statement: (f) => [
      `update public.idempotency_keys set key = 'stolen' where id = $1`,
      [f.idempotencyKeyId],
    ],
    allowed: NOBODY,
  },
  {
    table: 'idempotency_keys',
    command: 'delete',
    attempt: "delete a fellow member's Idempotency-Key record",
    statement: (f) => ['delete from public.idempotency_keys where id = $1', [f.idempotencyKeyId]],
    allowed: NOBODY,
  },
  // events: the triggers append them (security definer); members read them, nobody writes them
  {
    table: 'events',
    command: 'select',
    attempt: "read the workspace's events",
    statement: (f) => ['select 1 from public.events where id = $1', [f.eventId]],
    allowed: MEMBERS,
  },
  {
    table: 'events',
    command: 'insert',
    attempt: 'forge an event',
    statement: (f, me) => [
      `insert into public.events (workspace_id, seq, actor_id, type, data)
       values ($1, 1000000, $2, 'task.deleted', '{}')`,
      [f.workspaceId, me],
    ],
    allowed: NOBODY,
  },
  {
    table: 'events',
    command: 'update',
    attempt: 'rewrite an event',
    statement: (f) => [`update public.events set data = '{}' where id = $1`, [f.eventId]],
    allowed: NOBODY,
  },
  {
    table: 'events',
    command: 'delete',
    attempt: 'delete an event',
    statement: (f) => ['delete from public.events where id = $1', [f.eventId]],
    allowed: NOBODY,
  },
];

/** Tables whose rows belong to a workspace: none of them may show another workspace's rows. */
const WORKSPACE_TABLES = [
  'workspaces',
  'memberships',
  'invitations',
  'projects',
  'labels',
  'tasks',
  'comments',
  'events',
  'attachments',
  'webhooks',
  'webhook_deliveries',
] as const;

describe('row-level security (docs/product.md#roles), role by role', () => {
  const owner = useTestDatabaseClient();
  let db: pg.Client;
  let fixture: RlsFixture;

  beforeAll(async () => {
    db = owner.db;
    fixture = await createRlsFixture(db);
    await insertAttachmentObjects(db, fixture);
  });

  const callerId = (caller: Caller) =>
    caller === 'anon' ? '00000000-0000-0000-0000-000000000000' : fixture.users[caller];

  test('every table in public has RLS enabled', async () => {
    const result = await db.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' and not rowsecurity order by tablename`,
    );
    expect(result.rows.map((row) => row.tablename)).toEqual([]);
  });

  test('every table in public has a rule here for each command', async () => {
    const result = await db.query<{ tablename: string }>(
      `select tablename from pg_tables where schemaname = 'public' order by tablename`,
    );
    const missing = result.rows.flatMap(({ tablename }) =>
      (['select', 'insert', 'update', 'delete'] as const)
        .filter((command) => !RULES.some((rule) => rule.table === tablename && rule.command === command))
        .map((command) => `${tablename} ${command}`),
    );
    expect(missing).toEqual([]);
  });

  describe.each(RULES)('$table $command: $attempt', (rule) => {
    test.each(CALLERS)('as %s', async (caller) => {
      const [sql, values] = rule.statement(fixture, callerId(caller));
      const expected = rule.allowed.includes(caller) ? 'allowed' : 'denied';
      expect(await probe(db, fixture, caller, sql, values)).toBe(expected);
    });
  });

  // The check as a sub-select, exactly, as Postgres prints it back: an InitPlan, run once per statement
  // (tests/db/live-credentials.test.ts counts it); called bare it would run once per row.
  const LIVE_CREDENTIAL_CHECK = '( SELECT private.caller_credential_is_live() AS caller_credential_is_live)';

  test('every table a session can reach admits live sessions and tokens only (the second security review, item 2)', async () => {
    const result = await db.query<{ table: string }>(
      `select format('%I.%I', t.schemaname, t.tablename) as table
       from pg_tables t
       where t.rowsecurity
         and (t.schemaname = 'public' or exists (
           select 1 from pg_policies p
           where p.schemaname = t.schemaname and p.tablename = t.tablename and 'authenticated' = any (p.roles)))
         and not exists (
           select 1 from pg_policies p
           where p.schemaname = t.schemaname and p.tablename = t.tablename and p.permissive = 'RESTRICTIVE'
             and p.cmd = 'ALL' and p.roles = '{authenticated}'
             and p.qual = $1 and p.with_check = $1)
       order by 1`,
      [LIVE_CREDENTIAL_CHECK],
    );
    expect(result.rows.map((row) => row.table)).toEqual([]);
  });

  /** What ends a credential without touching the token: a sign-out, a time-out, a ban, a soft deletion. */
  const ENDINGS = {
    'signed out': ['delete from auth.sessions where id = $1', 'select 1'],
    'timed out': [
      `update auth.sessions set not_after = now() - interval '1 second' where id = $1`,
      'update auth.sessions set not_after = null where id = $1',
    ],
    banned: [
      `update auth.users set banned_until = now() + interval '1 day' where id = $1`,
      'update auth.users set banned_until = null where id = $1',
    ],
    'soft-deleted': [
      'update auth.users set deleted_at = now() where id = $1',
      'update auth.users set deleted_at = null where id = $1',
    ],
  } as const;

  // Policies are the second line for what Data API, Storage and Realtime reach. The private schema's
  // functions are reachable through the API alone, which checks the credential before anything else.
  const throughPolicies = (rule: Rule) => rule.allowed.length > 0 && !rule.attempt.includes('private.');

  describe.each(RULES.filter(throughPolicies))(
    '$table $command ($attempt) with an ended credential',
    (rule) => {
      test.each(Object.keys(ENDINGS) as (keyof typeof ENDINGS)[])('%s: denied', async (ending) => {
        const caller = rule.allowed[0] as Exclude<Caller, 'anon'>;
        const me = callerId(caller);
        const [end, restore] = ENDINGS[ending];
        await db.query(end, [me]);
        try {
          const [sql, values] = rule.statement(fixture, me);
          expect(await probe(db, fixture, caller, sql, values)).toBe('denied');
        } finally {
          await db.query(restore, restore === 'select 1' ? [] : [me]);
          await ensureLiveSession(db, me);
        }
      });
    },
  );

  describe.each(WORKSPACE_TABLES)("another workspace's %s", (table) => {
    const column = table === 'workspaces' ? 'id' : 'workspace_id';
    test.each(CALLERS)('as %s', async (caller) => {
      const sql = `select 1 from public.${table} where ${column} = $1`;
      const expected = caller === 'outsider' ? 'allowed' : 'denied';
      expect(await probe(db, fixture, caller, sql, [fixture.otherWorkspaceId])).toBe(expected);
    });
  });
});
