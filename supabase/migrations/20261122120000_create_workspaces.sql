-- Workspaces and their members (SPEC §3, §4, §6); invitations follow in the next migration.
-- Writes that span rows (create a workspace with its owner) are functions in `private`; everything else
-- is plain SQL by the caller under the policies below.

create type public.workspace_role as enum ('owner', 'admin', 'member', 'viewer');

-- workspaces ------------------------------------------------------------------------------------------

create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique
    check (char_length(slug) between 3 and 40 and slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null check (char_length(btrim(name)) between 1 and 80),
  require_mfa boolean not null default false,
  created_by uuid references auth.users (id) on delete set null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index workspaces_created_by_idx on public.workspaces (created_by);
create trigger workspaces_bump_version before update on public.workspaces
  for each row execute function private.bump_version();

-- Nobody may lock a workspace behind a factor they have not proven: turning require_mfa on takes a
-- session that verified its second factor (aal2, and a session: an API token's aal2 only says its person
-- has a factor). The API checks it first to answer precisely; this holds it for the Data API too. Writes
-- without a caller (the service, migrations, tests' fixtures) are not users' and pass.
create function private.require_proven_factor_to_require_mfa()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.require_mfa and not old.require_mfa and (select auth.uid()) is not null
     and not (
       coalesce((select auth.jwt() ->> 'aal') = 'aal2', false)
       and (select auth.jwt() ->> 'session_id') is not null
     )
  then
    raise exception 'turning require_mfa on needs a session that verified a second factor'
      using errcode = 'P0001', hint = 'mfa_required';
  end if;
  return new;
end;
$$;
revoke all on function private.require_proven_factor_to_require_mfa() from public;

create trigger workspaces_require_proven_factor before update of require_mfa on public.workspaces
  for each row execute function private.require_proven_factor_to_require_mfa();

-- memberships -----------------------------------------------------------------------------------------

create table public.memberships (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.workspace_role not null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index memberships_user_id_idx on public.memberships (user_id);
create trigger memberships_bump_version before update on public.memberships
  for each row execute function private.bump_version();

-- the caller's workspaces -----------------------------------------------------------------------------

-- The caller's role in a workspace, or null. Security definer so that policies on memberships can ask
-- it without recursing into their own policies.
create function private.role_in(workspace uuid)
returns public.workspace_role
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.memberships m
  where m.workspace_id = workspace and m.user_id = (select auth.uid());
$$;

create function private.is_member(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.role_in(workspace) is not null;
$$;

create function private.is_admin(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.role_in(workspace) in ('owner', 'admin'), false);
$$;

create function private.can_edit(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.role_in(workspace) in ('owner', 'admin', 'member'), false);
$$;

-- Policies on the tables that grow with use (tasks, comments, events) do not call
-- private.is_member(workspace_id) for every row a statement reads: the argument differs per row, so
-- Postgres cannot evaluate it once, and a security definer function costs a context switch each time
-- (`npm run bench` measured the board's list at 31× the same SQL without RLS). Instead, each policy
-- compares the row's workspace with the caller's workspaces, computed once per statement (Supabase's RLS
-- performance guide: wrap in a select so it becomes an initPlan).

-- The workspaces the caller is a member of, and those where they may edit (any role but viewer).
create function private.caller_workspace_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id from public.memberships m where m.user_id = (select auth.uid());
$$;

create function private.caller_editable_workspace_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id from public.memberships m where m.user_id = (select auth.uid()) and m.role <> 'viewer';
$$;

-- The workspace MFA rule (SPEC §4: a workspace with require_mfa answers aal1 sessions `mfa_required`) is
-- held by the database too, so that an aal1 session can neither read nor change such a workspace through
-- the Data API (/rest/v1). Every workspace table has a restrictive policy, ANDed with the others: at
-- aal1, no row of a workspace that requires MFA. tests/db/direct-data-api-attacks.test.ts finds every
-- table in public with a workspace_id and fails when one lacks it.
--
-- Like the policies above, the restrictive policy compares the row's workspace with a set computed once
-- per statement (an initPlan), never a function per row; at aal2 the first term is true and no row pays
-- anything. Only the caller's own workspaces need be in the set: the permissive policies hide all others.
create function private.caller_mfa_workspace_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id
  from public.memberships m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid()) and w.require_mfa;
$$;

-- Two users share a workspace: what lets one read the other's profile. Profiles belong to no workspace,
-- so the restrictive MFA policies do not cover them; only the workspaces the caller's session is admitted
-- to count (at aal1, those that do not require MFA), or an aal1 session could list the people of a
-- workspace that requires MFA.
create function private.shares_workspace_with(other_user uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.memberships mine
    join public.memberships theirs on theirs.workspace_id = mine.workspace_id
    where mine.user_id = (select auth.uid()) and theirs.user_id = other_user
      and (
        (select auth.jwt() ->> 'aal') = 'aal2'
        or mine.workspace_id not in (select private.caller_mfa_workspace_ids())
      )
  );
$$;

-- What the API still needs at aal1, to answer `403 mfa_required` instead of `404` (and to list the
-- caller's workspaces, MFA ones included): the caller's own memberships with their workspace's settings.
-- (The workspace of a task or comment of the caller's: private.caller_workspace_of_task and
-- private.caller_workspace_of_comment, with their tables.)
create function private.caller_workspaces()
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
language sql
stable
security definer
set search_path = ''
as $$
  select w.id, w.slug, w.name, w.require_mfa, m.role, w.created_by, w.version, w.created_at, w.updated_at
  from public.memberships m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid());
$$;

revoke all on function private.role_in(uuid), private.is_member(uuid), private.is_admin(uuid),
  private.can_edit(uuid), private.caller_workspace_ids(), private.caller_editable_workspace_ids(),
  private.caller_mfa_workspace_ids(), private.shares_workspace_with(uuid), private.caller_workspaces()
  from public;
grant execute on function private.role_in(uuid), private.is_member(uuid), private.is_admin(uuid),
  private.can_edit(uuid), private.caller_workspace_ids(), private.caller_editable_workspace_ids(),
  private.caller_mfa_workspace_ids(), private.shares_workspace_with(uuid), private.caller_workspaces()
  to authenticated;

-- owners ----------------------------------------------------------------------------------------------

-- A workspace always keeps an owner: the last one can neither leave nor be demoted, even when owner
-- changes race. Counting the other owners without a lock would let two owners leave at once under READ
-- COMMITTED (or one demote the other while the other removes them), each seeing the other still there.
-- So every change that takes away an owner waits for the others of its workspace, then counts with a
-- fresh snapshot (each statement of a plpgsql function takes its own under READ COMMITTED).
--
-- A transaction-scoped advisory lock per workspace rather than a lock on the workspace row: the row of
-- the membership is already locked when a BEFORE trigger runs, and deleting the workspace locks its row
-- before it cascades to the memberships, so locking the workspace row here would deadlock a member
-- leaving against the workspace's deletion. A workspace that is gone (being deleted by this very
-- transaction) needs no owner and takes no lock.
create function private.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner')
     or not exists (select 1 from public.workspaces w where w.id = old.workspace_id)
  then
    return coalesce(new, old);
  end if;
  perform pg_advisory_xact_lock(hashtextextended('workspace_owners:' || old.workspace_id::text, 0));
  if not exists (
    select 1 from public.memberships m
    where m.workspace_id = old.workspace_id and m.role = 'owner' and m.user_id <> old.user_id
  ) then
    raise exception 'a workspace keeps at least one owner' using errcode = 'P0001', hint = 'last_owner';
  end if;
  return coalesce(new, old);
end;
$$;
revoke all on function private.keep_an_owner() from public;
create trigger memberships_keep_an_owner before update of role or delete on public.memberships
  for each row execute function private.keep_an_owner();

-- access ----------------------------------------------------------------------------------------------

alter table public.workspaces enable row level security;
alter table public.memberships enable row level security;

create policy "Members can read their workspaces" on public.workspaces
  for select to authenticated using ((select private.is_member(id)));
create policy "Admins can update their workspaces" on public.workspaces
  for update to authenticated using ((select private.is_admin(id))) with check ((select private.is_admin(id)));
create policy "Owners can delete their workspaces" on public.workspaces
  for delete to authenticated using ((select private.role_in(id)) = 'owner');
create policy "Workspaces that require MFA admit aal2 only" on public.workspaces
  as restrictive for all to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or id not in (select private.caller_mfa_workspace_ids()))
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or id not in (select private.caller_mfa_workspace_ids()));

create policy "Members can read the members of their workspaces" on public.memberships
  for select to authenticated using ((select private.is_member(workspace_id)));
-- Owners change any role; admins change roles up to admin, never an owner's.
create policy "Admins can change roles they outrank" on public.memberships
  for update to authenticated
  using (
    (select private.role_in(workspace_id)) = 'owner'
    or ((select private.role_in(workspace_id)) = 'admin' and role <> 'owner')
  )
  with check (
    (select private.role_in(workspace_id)) = 'owner'
    or ((select private.role_in(workspace_id)) = 'admin' and role <> 'owner')
  );
create policy "Members can leave and admins can remove those they outrank" on public.memberships
  for delete to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.role_in(workspace_id)) = 'owner'
    or ((select private.role_in(workspace_id)) = 'admin' and role <> 'owner')
  );
create policy "Workspaces that require MFA admit aal2 only" on public.memberships
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

-- Supabase's default privileges give anon and authenticated every privilege on each new table in public
-- (and PostgREST exposes them). RLS keeps other people's rows out of reach, but only grants keep columns
-- (created_by, number, token_hash, …) and TRUNCATE out of reach. So every table's migration revokes them
-- first and grants exactly what it means; tests/db/grants.test.ts keeps it so.
revoke all on table public.workspaces, public.memberships from anon, authenticated;
grant select, delete on public.workspaces, public.memberships to authenticated;
grant update (name, slug, require_mfa) on public.workspaces to authenticated;
grant update (role) on public.memberships to authenticated;

-- limits ----------------------------------------------------------------------------------------------

-- The workspaces a person may create, and the projects and labels a workspace may have (SPEC §9), as
-- constants equal to supabase/functions/_shared/limits.ts (tests/db/direct-data-api-attacks.test.ts
-- compares them). The API counts first to answer precisely; the database holds them for every way in,
-- the Data API (/rest/v1) included.
create function private.max_workspaces_per_user()
returns integer language sql immutable set search_path = '' as $$ select 10 $$;

create function private.max_projects_per_workspace()
returns integer language sql immutable set search_path = '' as $$ select 100 $$;

create function private.max_labels_per_workspace()
returns integer language sql immutable set search_path = '' as $$ select 100 $$;

revoke all on function private.max_workspaces_per_user(), private.max_projects_per_workspace(),
  private.max_labels_per_workspace()
  from public;

-- Before each project or label is inserted (the triggers are with their tables): lock the workspace row,
-- so that the workspace's creations run one at a time, then count what it has (rows inserted earlier by
-- the same statement included). FOR NO KEY UPDATE does not conflict with the KEY SHARE locks foreign keys
-- take, so the rest of the workspace's writes never wait on it. Raises P0001 with the API's error code as
-- the hint.
create function private.hold_workspace_limit()
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
revoke all on function private.hold_workspace_limit() from public;

-- atomic operations -----------------------------------------------------------------------------------
-- They raise P0001 with the API's error code as the hint; the API's queries modules translate it.

-- Creates a workspace with the caller as its owner, within the creation limit (SPEC §9).
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
revoke all on function private.create_workspace(text, text) from public;
grant execute on function private.create_workspace(text, text) to authenticated;

-- members ---------------------------------------------------------------------------------------------

-- A member as the API answers it (GET /v1/workspaces/{slug}/members/{user_id}), for event data and for
-- the export. Who is in the workspace, never e-mail addresses (the feed is read by every member; the
-- members list is where addresses are shown). Security invoker: the export selects it as the caller, so
-- called with a made-up row it tells nothing the caller could not read anyway (the profile is read under
-- RLS); the event triggers that call it are security definer themselves.
create function private.member_json(membership public.memberships)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'member',
    'user_id', membership.user_id,
    'workspace_id', membership.workspace_id,
    'role', membership.role,
    'display_name', (select p.display_name from public.profiles p where p.user_id = membership.user_id),
    'version', membership.version,
    'created_at', private.iso_timestamp(membership.created_at),
    'updated_at', private.iso_timestamp(membership.updated_at)
  );
$$;

-- The e-mail address of every member of `workspace`, for a caller who is a member too; nothing otherwise
-- (auth.users is out of the API roles' reach).
create function private.member_emails(workspace uuid)
returns table (user_id uuid, email text)
language sql
stable
security definer
set search_path = ''
as $$
  select m.user_id, u.email::text
  from public.memberships m
  join auth.users u on u.id = m.user_id
  where m.workspace_id = workspace and (select private.is_member(workspace));
$$;

revoke all on function private.member_json(public.memberships), private.member_emails(uuid) from public;
grant execute on function private.member_json(public.memberships), private.member_emails(uuid) to authenticated;

-- profiles ---------------------------------------------------------------------------------------------
-- SPEC §3: a profile is read by anyone who shares a workspace with its owner (policies are OR-ed with
-- "People see their own profile").
create policy "People see the profiles of those they share a workspace with" on public.profiles
  for select to authenticated using ((select private.shares_workspace_with(user_id)));
