-- Functions are executable by PUBLIC when created, and `alter default privileges in schema private` cannot
-- take back that global grant; the API roles have USAGE on `private` (policies call its helpers). So
-- every function in `private` was callable by any signed-in user unless its migration revoked it. This
-- resets them all to nothing, then grants exactly the ones the API roles call; tests/db/grants.test.ts
-- fails when a function is callable beyond this list. Trigger functions need no grant to fire.
revoke execute on all functions in schema private from public, anon, authenticated;

-- Membership helpers, called by the policies.
grant execute on function private.role_in(uuid), private.is_member(uuid), private.is_admin(uuid),
  private.can_edit(uuid), private.shares_workspace_with(uuid)
  to authenticated;

-- The caller's own session, account and factors (authentication and /v1/me).
grant execute on function private.caller_session_is_active(), private.caller_account(),
  private.caller_mfa_factors(), private.caller_has_verified_factor()
  to authenticated;

-- Writes that span rows, each checking the caller itself.
grant execute on function private.create_workspace(text, text, integer), private.accept_invitation(bytea),
  private.create_invitation(uuid, text, public.workspace_role, bytea, integer, integer),
  private.own_recent_invitations(integer), private.member_emails(uuid),
  private.delete_comment(uuid, integer[])
  to authenticated;

-- Recording an idempotency key sweeps expired ones in the same statement (they are nobody's any more).
grant execute on function private.delete_expired_idempotency_keys(integer) to authenticated;

-- The JSON builders the export selects as the caller; pure functions of the row they are given.
alter function private.comment_json(public.comments) security invoker;
grant execute on function private.iso_timestamp(timestamptz), private.task_json(public.tasks),
  private.project_json(public.projects), private.label_json(public.labels),
  private.member_json(public.memberships), private.comment_json(public.comments)
  to authenticated;
