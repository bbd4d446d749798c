-- The caller's workspace sets that every RLS policy on the workspace tables compares a row's workspace
-- with (an initPlan, once per statement), and the caller's memberships the API reads access from.
-- As SQL functions they cannot be inlined (security definer, search_path set), so Postgres parsed and
-- planned their query on every call: a few tenths of a millisecond per statement, on every statement a
-- request sends. As PL/pgSQL, each session plans the query once and keeps the plan. Same signatures,
-- same results, same privileges (create or replace keeps the grants).

create or replace function private.caller_workspace_ids()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query select m.workspace_id from public.memberships m where m.user_id = (select auth.uid());
end;
$$;

create or replace function private.caller_editable_workspace_ids()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select m.workspace_id from public.memberships m where m.user_id = (select auth.uid()) and m.role <> 'viewer';
end;
$$;

create or replace function private.caller_mfa_workspace_ids()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select m.workspace_id
  from public.memberships m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid()) and w.require_mfa;
end;
$$;

create or replace function private.caller_workspaces()
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
stable
security definer
set search_path = ''
as $$
begin
  return query
  select w.id, w.slug, w.name, w.require_mfa, m.role, w.created_by, w.version, w.created_at, w.updated_at
  from public.memberships m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid());
end;
$$;
