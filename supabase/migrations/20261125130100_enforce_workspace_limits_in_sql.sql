-- The projects and labels a workspace may have (SPEC §9) were counted by the API only, so inserts through
-- the Data API (/rest/v1) could exceed them; and private.create_workspace took its limit from its caller.
-- The limits now live here too, as constants equal to supabase/functions/_shared/limits.ts
-- (tests/db/direct-data-api-attacks.test.ts compares them), and a trigger holds them on every insert.

create or replace function private.max_workspaces_per_user()
returns integer language sql immutable set search_path = '' as $$ select 10 $$;

create or replace function private.max_projects_per_workspace()
returns integer language sql immutable set search_path = '' as $$ select 100 $$;

create or replace function private.max_labels_per_workspace()
returns integer language sql immutable set search_path = '' as $$ select 100 $$;

revoke execute on function private.max_workspaces_per_user(), private.max_projects_per_workspace(),
  private.max_labels_per_workspace()
  from public, anon, authenticated;

-- Before each project or label is inserted: lock the workspace row, so that the workspace's creations
-- run one at a time, then count what it has (rows inserted earlier by the same statement included).
-- FOR NO KEY UPDATE does not conflict with the KEY SHARE locks foreign keys take, so the rest of the
-- workspace's writes never wait on it. Raises P0001 with the API's error code as the hint.
create or replace function private.hold_workspace_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing integer;
  maximum integer;
begin
  perform 1 from public.workspaces w where w.id = new.workspace_id for no key update;
  if tg_table_name = 'projects' then
    maximum := private.max_projects_per_workspace();
    select count(*) into existing from public.projects p where p.workspace_id = new.workspace_id;
  else
    maximum := private.max_labels_per_workspace();
    select count(*) into existing from public.labels l where l.workspace_id = new.workspace_id;
  end if;
  if existing >= maximum then
    raise exception 'the workspace has % %, the limit', maximum, tg_table_name
      using errcode = 'P0001', hint = 'limit_reached';
  end if;
  return new;
end;
$$;
revoke execute on function private.hold_workspace_limit() from public, anon, authenticated;

create trigger projects_hold_workspace_limit before insert on public.projects
  for each row execute function private.hold_workspace_limit();
create trigger labels_hold_workspace_limit before insert on public.labels
  for each row execute function private.hold_workspace_limit();

-- Creates a workspace with the caller as its owner, within the creation limit (SPEC §9), which is no
-- longer an argument.
drop function private.create_workspace(text, text, integer);
create function private.create_workspace(workspace_name text, workspace_slug text)
returns public.workspaces
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  created public.workspaces;
begin
  if caller is null then
    raise exception 'no caller' using errcode = 'P0001', hint = 'unauthenticated';
  end if;
  -- One creation at a time per user, so that two concurrent requests cannot both pass the limit.
  perform pg_advisory_xact_lock(hashtextextended('create_workspace:' || caller::text, 0));
  if (select count(*) from public.workspaces w where w.created_by = caller) >= private.max_workspaces_per_user()
  then
    raise exception 'workspace limit reached' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  insert into public.workspaces (name, slug, created_by)
    values (btrim(workspace_name), workspace_slug, caller)
    returning * into created;
  insert into public.memberships (workspace_id, user_id, role) values (created.id, caller, 'owner');
  return created;
end;
$$;
revoke execute on function private.create_workspace(text, text) from public, anon;
grant execute on function private.create_workspace(text, text) to authenticated;
