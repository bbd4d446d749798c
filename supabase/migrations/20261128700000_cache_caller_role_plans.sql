-- The per-row and per-statement helpers the RLS policies and the API's reads call, as PL/pgSQL, for the
-- reason 20261128400000 gives: a SQL function that is security definer (or sets search_path) is never
-- inlined, so Postgres parsed and planned its query on every call, in every statement; a PL/pgSQL
-- function's session plans it once and keeps the plan. The projects policies call is_member and
-- is_admin, the memberships and workspaces policies role_in, and every read by task, comment or
-- attachment id the caller_workspace_of_* lookups. Same signatures, same results, same privileges
-- (create or replace keeps the grants). Measured: a project-scoped list's transaction, 2.12 → 1.93 ms.

create or replace function private.role_in(workspace uuid)
returns public.workspace_role
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select m.role from public.memberships m
    where m.workspace_id = workspace and m.user_id = (select auth.uid())
  );
end;
$$;

create or replace function private.is_member(workspace uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.memberships m
    where m.workspace_id = workspace and m.user_id = (select auth.uid())
  );
end;
$$;

create or replace function private.is_admin(workspace uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(private.role_in(workspace) in ('owner', 'admin'), false);
end;
$$;

create or replace function private.can_edit(workspace uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(private.role_in(workspace) in ('owner', 'admin', 'member'), false);
end;
$$;

create or replace function private.caller_workspace_of_task(task uuid)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select t.workspace_id from public.tasks t
    where t.id = task and t.workspace_id in (select private.caller_workspace_ids())
  );
end;
$$;

create or replace function private.caller_workspace_of_comment(comment uuid)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select c.workspace_id from public.comments c
    where c.id = comment and c.workspace_id in (select private.caller_workspace_ids())
  );
end;
$$;

create or replace function private.caller_workspace_of_attachment(attachment uuid)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select a.workspace_id from public.attachments a
    where a.id = attachment and a.workspace_id in (select private.caller_workspace_ids())
  );
end;
$$;

-- The project a request names by its workspace's slug and its key, found in one of the caller's
-- workspaces without the projects policies: the membership is the rule those policies hold, and it is
-- checked here. RLS still judges every row read through the id (a task's workspace, MFA).
create function private.caller_project_id(workspace_slug text, project_key text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select p.id
    from public.memberships m
    join public.workspaces w on w.id = m.workspace_id
    join public.projects p on p.workspace_id = w.id
    where m.user_id = (select auth.uid()) and w.slug = workspace_slug and p.key = project_key
  );
end;
$$;

-- The caller's access to the workspace `workspace_slug` (as private.caller_workspaces tells it) and that
-- workspace's project `project_key` (null when it has none), in one statement. The project is told
-- whatever the workspace's MFA rule: the API judges that rule first, from `require_mfa` (403 before
-- any project is shown), as RLS would hide the project.
create function private.caller_workspace_project(workspace_slug text, project_key text)
returns table (id uuid, slug text, require_mfa boolean, role public.workspace_role, project jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select w.id, w.slug, w.require_mfa, m.role,
    (select private.project_json(p) from public.projects p where p.workspace_id = w.id and p.key = project_key)
  from public.memberships m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid()) and w.slug = workspace_slug;
end;
$$;

revoke all on function private.caller_project_id(text, text) from public;
revoke all on function private.caller_workspace_project(text, text) from public;
grant execute on function private.caller_project_id(text, text) to authenticated;
grant execute on function private.caller_workspace_project(text, text) to authenticated;
