/**
 * Least privilege in grants, beside RLS: Supabase's default privileges would give the API roles every
 * privilege on every table in public. No table may grant anon anything, nor authenticated TRUNCATE,
 * REFERENCES or TRIGGER (TRUNCATE ignores RLS), nor table-wide INSERT or UPDATE (columns are granted
 * one by one, so no request can set what only the database sets).
 */
import type pg from 'pg';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabaseClient } from '../support/test-database.ts';

describe('grants on public tables', () => {
  const owner = useTestDatabaseClient();
  let db: pg.Client;

  beforeAll(() => {
    db = owner.db;
  });

  const tablePrivileges = async (role: string, privileges: readonly string[]) =>
    (
      await db.query<{ grant: string }>(
        `select c.relname || ' ' || p.privilege as grant
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
         cross join unnest($2::text[]) as p(privilege)
         where c.relkind in ('r', 'p', 'v', 'm')
           and has_table_privilege($1, c.oid, p.privilege)
         order by 1`,
        [role, privileges],
      )
    ).rows.map((row) => row.grant);

  test('anon has no privilege on any table', async () => {
    expect(
      await tablePrivileges('anon', [
        'SELECT',
        'INSERT',
        'UPDATE',
        'DELETE',
        'TRUNCATE',
        'REFERENCES',
        'TRIGGER',
      ]),
    ).toEqual([]);
  });

  test('authenticated has no TRUNCATE, REFERENCES or TRIGGER, and no table-wide INSERT or UPDATE', async () => {
    expect(
      await tablePrivileges('authenticated', ['TRUNCATE', 'REFERENCES', 'TRIGGER', 'INSERT', 'UPDATE']),
    ).toEqual([]);
  });

  /** What the API roles may call in `private` (each migration grants its own), and nothing else. */
  const CALLABLE_BY_AUTHENTICATED = [
    'accept_invitation',
    'attachment_json',
    'attachment_upload_expired',
    'begin_avatar_upload',
    'caller_avatar_upload',
    'caller_workspace_of_attachment',
    'complete_attachment',
    'complete_avatar_upload',
    'create_attachment',
    'delete_attachment',
    'remove_avatar',
    'uploaded_object_size',
    'uploaded_object_type',
    'caller_account',
    'caller_credential_is_live',
    'caller_editable_workspace_ids',
    'caller_has_verified_factor',
    'caller_mfa_factors',
    'caller_mfa_workspace_ids',
    'caller_project_id',
    'caller_realtime_topics',
    'caller_workspace_ids',
    'caller_workspace_of_comment',
    'caller_workspace_of_task',
    'caller_workspace_project',
    'caller_workspaces',
    'can_edit',
    'comment_json',
    'create_invitation',
    'create_workspace',
    'default_notification_delivery',
    'delete_comment',
    'enqueue_invitation_mail',
    'delete_expired_idempotency_keys',
    'is_admin',
    'is_member',
    'iso_timestamp',
    'join_by_invitation',
    'label_json',
    'member_emails',
    'member_json',
    'mention_count',
    'mentioned_user_ids',
    'move_task',
    'notification_types',
    'own_recent_invitations',
    'order_key_between',
    'order_key_decrement',
    'order_key_digit',
    'order_key_increment',
    'order_key_integer_length',
    'order_keys_after',
    'order_key_integer_part',
    'order_key_midpoint',
    'order_key_validate',
    'pending_upload_window',
    'preview_invitation',
    'queue_webhook_ping',
    'redeliver_webhook_delivery',
    'project_json',
    'restore_task',
    'restoring_task',
    'role_in',
    'set_webhook_secret',
    'shares_workspace_with',
    'task_ids_matching',
    'task_json',
    'task_status_rank',
  ];

  const callablePrivateFunctions = async (role: string) =>
    (
      await db.query<{ name: string }>(
        `select distinct p.proname as name from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace and n.nspname = 'private'
         where has_function_privilege($1, p.oid, 'EXECUTE') and p.prorettype <> 'trigger'::regtype
         order by 1`,
        [role],
      )
    ).rows.map((row) => row.name);

  test('authenticated may call exactly the private functions meant for it', async () => {
    expect(await callablePrivateFunctions('authenticated')).toEqual([...CALLABLE_BY_AUTHENTICATED].sort());
  });

  test('anon may call only the invitation preview, for the signed-out invitation page', async () => {
    expect(await callablePrivateFunctions('anon')).toEqual(['preview_invitation']);
  });

  test('the check can see a grant (a table-wide UPDATE made on purpose is found)', async () => {
    await db.query('begin');
    try {
      await db.query('grant update on public.tasks to authenticated');
      expect(await tablePrivileges('authenticated', ['UPDATE'])).toEqual(['tasks UPDATE']);
    } finally {
      await db.query('rollback');
    }
  });
});
