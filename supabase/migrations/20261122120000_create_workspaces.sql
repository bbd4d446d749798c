-- Workspaces, their members and invitations (SPEC §3, §4, §6).
-- Writes that span rows (create a workspace with its owner, accept an invitation) are functions in
-- `private`; everything else is plain SQL by the caller under the policies below.

create type public.workspace_role as enum ('owner', 'admin', 'member', 'viewer');

-- Every resource carries `version`, bumped with `updated_at` on each change (ETag / If-Match). Shared by
-- every versioned table.
create or replace function private.bump_version()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  new.updated_at := now();
  return new;
end;
$$;

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

-- The caller's role in a workspace, or null. Security definer so that policies on memberships can ask
-- it without recursing into their own policies.
create or replace function private.role_in(workspace uuid)
returns public.workspace_role
language sql
stable
security definer
set search_path = ''
as $$
  select m.role from public.memberships m
  where m.workspace_id = workspace and m.user_id = (select auth.uid());
$$;

create or replace function private.is_member(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.role_in(workspace) is not null;
$$;

create or replace function private.is_admin(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.role_in(workspace) in ('owner', 'admin'), false);
$$;

create or replace function private.can_edit(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.role_in(workspace) in ('owner', 'admin', 'member'), false);
$$;

-- Two users share a workspace: what lets one read the other's profile.
create or replace function private.shares_workspace_with(other_user uuid)
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
  );
$$;

grant execute on function private.role_in(uuid), private.is_member(uuid), private.is_admin(uuid),
  private.can_edit(uuid), private.shares_workspace_with(uuid) to authenticated;

-- A workspace always keeps an owner: the last one can neither leave nor be demoted.
create or replace function private.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role = 'owner'
     and (tg_op = 'DELETE' or new.role <> 'owner')
     and exists (select 1 from public.workspaces w where w.id = old.workspace_id)
     and not exists (
       select 1 from public.memberships m
       where m.workspace_id = old.workspace_id and m.role = 'owner' and m.user_id <> old.user_id
     )
  then
    raise exception 'a workspace keeps at least one owner' using errcode = 'P0001', hint = 'last_owner';
  end if;
  return coalesce(new, old);
end;
$$;
create trigger memberships_keep_an_owner before update of role or delete on public.memberships
  for each row execute function private.keep_an_owner();

alter table public.workspaces enable row level security;
alter table public.memberships enable row level security;

create policy "Members can read their workspaces" on public.workspaces
  for select to authenticated using ((select private.is_member(id)));
create policy "Admins can update their workspaces" on public.workspaces
  for update to authenticated using ((select private.is_admin(id))) with check ((select private.is_admin(id)));
create policy "Owners can delete their workspaces" on public.workspaces
  for delete to authenticated using ((select private.role_in(id)) = 'owner');

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

grant select, delete on public.workspaces, public.memberships to authenticated;
grant update (name, slug, require_mfa) on public.workspaces to authenticated;
grant update (role) on public.memberships to authenticated;

-- invitations -----------------------------------------------------------------------------------------

create type public.invitation_status as enum ('pending', 'accepted', 'revoked');

create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (char_length(email) between 3 and 254),
  role public.workspace_role not null,
  -- SHA-256 of the 32 random bytes the invitee holds; the token itself is never stored.
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  status public.invitation_status not null default 'pending',
  invited_by uuid references auth.users (id) on delete set null,
  accepted_by uuid references auth.users (id) on delete set null,
  expires_at timestamptz not null default now() + interval '7 days',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One pending invitation per address and workspace (expired ones are pending until read as expired).
create unique index invitations_one_pending_idx on public.invitations (workspace_id, lower(email))
  where status = 'pending';
create index invitations_workspace_id_idx on public.invitations (workspace_id, created_at, id);
create trigger invitations_bump_version before update on public.invitations
  for each row execute function private.bump_version();

alter table public.invitations enable row level security;
create policy "Admins can read their workspaces' invitations" on public.invitations
  for select to authenticated using ((select private.is_admin(workspace_id)));
create policy "Admins can invite up to their own role" on public.invitations
  for insert to authenticated
  with check (
    invited_by = (select auth.uid())
    and status = 'pending'
    and (
      (select private.role_in(workspace_id)) = 'owner'
      or ((select private.role_in(workspace_id)) = 'admin' and role <> 'owner')
    )
  );
create policy "Admins can revoke their workspaces' invitations" on public.invitations
  for update to authenticated
  using ((select private.is_admin(workspace_id)))
  with check ((select private.is_admin(workspace_id)));
grant select on public.invitations to authenticated;
grant insert (workspace_id, email, role, token_hash, invited_by) on public.invitations to authenticated;
grant update (status) on public.invitations to authenticated;

-- atomic operations -----------------------------------------------------------------------------------
-- They raise P0001 with the API's error code as the hint; the API's queries modules translate it.

-- Creates a workspace with the caller as its owner, within the caller's creation limit (SPEC §9).
create or replace function private.create_workspace(workspace_name text, workspace_slug text, max_created integer)
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
  if (select count(*) from public.workspaces w where w.created_by = caller) >= max_created then
    raise exception 'workspace limit reached' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  insert into public.workspaces (name, slug, created_by)
    values (btrim(workspace_name), workspace_slug, caller)
    returning * into created;
  insert into public.memberships (workspace_id, user_id, role) values (created.id, caller, 'owner');
  return created;
end;
$$;

-- Accepts a pending invitation for the caller, whose e-mail must be the invited one.
create or replace function private.accept_invitation(invitation_token_hash bytea)
returns public.memberships
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  caller_email text;
  invitation public.invitations;
  joined public.memberships;
begin
  select u.email into caller_email from auth.users u where u.id = caller;
  select * into invitation from public.invitations i where i.token_hash = invitation_token_hash for update;
  if invitation.id is null or invitation.status = 'accepted' then
    raise exception 'no such invitation' using errcode = 'P0001', hint = 'not_found';
  elsif invitation.status = 'revoked' then
    raise exception 'invitation revoked' using errcode = 'P0001', hint = 'invitation_revoked';
  elsif invitation.expires_at <= now() then
    raise exception 'invitation expired' using errcode = 'P0001', hint = 'invitation_expired';
  elsif lower(invitation.email) <> lower(coalesce(caller_email, '')) then
    raise exception 'invitation is for another address' using errcode = 'P0001', hint = 'forbidden';
  elsif exists (
    select 1 from public.memberships m where m.workspace_id = invitation.workspace_id and m.user_id = caller
  ) then
    raise exception 'already a member' using errcode = 'P0001', hint = 'already_member';
  end if;
  insert into public.memberships (workspace_id, user_id, role)
    values (invitation.workspace_id, caller, invitation.role)
    returning * into joined;
  update public.invitations set status = 'accepted', accepted_by = caller where id = invitation.id;
  return joined;
end;
$$;

grant execute on function private.create_workspace(text, text, integer), private.accept_invitation(bytea)
  to authenticated;

-- profiles ---------------------------------------------------------------------------------------------
-- SPEC §3: a profile is read by anyone who shares a workspace with its owner (policies are OR-ed with
-- "People see their own profile").
create policy "People see the profiles of those they share a workspace with" on public.profiles
  for select to authenticated using ((select private.shares_workspace_with(user_id)));
