-- Accepting an invitation answers the workspace joined, as the caller's own (docs/decisions/0016): the
-- API judges its MFA rule on that row before it commits, in the round trip of the accept itself. Security
-- invoker: it calls what the caller may call anyway (private.accept_invitation, then
-- private.caller_workspaces(), whose next statement sees the membership just made) and grants nothing.
create function private.join_by_invitation(invitation_token_hash bytea)
returns table (
  id uuid,
  slug text,
  name text,
  require_mfa boolean,
  role public.workspace_role,
  created_by uuid,
  version integer,
  created_at timestamptz,
  updated_at timestamptz
)
language plpgsql
set search_path = ''
as $$
declare
  joined uuid;
begin
  select j.workspace_id into joined from private.accept_invitation(invitation_token_hash) j;
  return query
    select w.id, w.slug, w.name, w.require_mfa, w.role, w.created_by, w.version, w.created_at, w.updated_at
    from private.caller_workspaces() w
    where w.id = joined;
end;
$$;
revoke all on function private.join_by_invitation(bytea) from public;
grant execute on function private.join_by_invitation(bytea) to authenticated;
