-- What members and invitations need beyond the policies of 20261122120000_create_workspaces.sql: the
-- members' e-mail addresses (auth.users is out of the API roles' reach), an atomic invitation within the
-- member limit, and the caller's recent invitations for the hourly creation budget.

-- Who sent an invitation, and when: the hourly budget counts a person's invitations in all workspaces.
create index invitations_invited_by_idx on public.invitations (invited_by, created_at);

-- The e-mail address of every member of `workspace`, for a caller who is a member too; nothing otherwise.
create or replace function private.member_emails(workspace uuid)
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

-- Invites `invitee_email` to `workspace` as `invitee_role` for the caller, who must be an owner (any
-- role) or an admin (any role but owner). Members and unexpired pending invitations together stay under
-- `max_members`; an address that is a member, or has a pending invitation, cannot be invited again.
-- Raises P0001 with the API's error code as the hint.
create or replace function private.create_invitation(
  workspace uuid,
  invitee_email text,
  invitee_role public.workspace_role,
  invitation_token_hash bytea,
  max_members integer,
  lifetime_days integer
)
returns public.invitations
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  caller_role public.workspace_role := private.role_in(workspace);
  address text := lower(btrim(invitee_email));
  created public.invitations;
begin
  if caller is null then
    raise exception 'no caller' using errcode = 'P0001', hint = 'unauthenticated';
  elsif caller_role is null then
    raise exception 'not a member' using errcode = 'P0001', hint = 'not_found';
  elsif not (caller_role = 'owner' or (caller_role = 'admin' and invitee_role <> 'owner')) then
    raise exception 'role may not invite' using errcode = 'P0001', hint = 'forbidden';
  end if;
  -- One invitation at a time per workspace, so that two concurrent ones cannot both pass the limit.
  perform pg_advisory_xact_lock(hashtextextended('workspace_members:' || workspace::text, 0));
  if exists (
    select 1 from public.memberships m join auth.users u on u.id = m.user_id
    where m.workspace_id = workspace and lower(u.email) = address
  ) then
    raise exception 'already a member' using errcode = 'P0001', hint = 'already_member';
  end if;
  update public.invitations i set status = 'expired'
  where i.workspace_id = workspace and lower(i.email) = address and i.status = 'pending'
    and i.expires_at <= now();
  if exists (
    select 1 from public.invitations i
    where i.workspace_id = workspace and lower(i.email) = address and i.status = 'pending'
  ) then
    raise exception 'invitation exists' using errcode = 'P0001', hint = 'invitation_exists';
  end if;
  if (select count(*) from public.memberships m where m.workspace_id = workspace)
     + (select count(*) from public.invitations i
        where i.workspace_id = workspace and i.status = 'pending' and i.expires_at > now())
     >= max_members
  then
    raise exception 'member limit reached' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  insert into public.invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
    values (workspace, btrim(invitee_email), invitee_role, invitation_token_hash, caller,
      now() + make_interval(days => lifetime_days))
    returning * into created;
  return created;
end;
$$;

-- How many invitations the caller created in the last `window_seconds`, in any workspace (even those
-- where they are no longer an admin, whose invitations RLS hides from them), and in how many seconds
-- the oldest of them leaves the window (null when there is none).
create or replace function private.own_recent_invitations(window_seconds integer)
returns table (count integer, retry_after_seconds integer)
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer,
    ceil(extract(epoch from min(i.created_at) + make_interval(secs => window_seconds) - now()))::integer
  from public.invitations i
  where i.invited_by = (select auth.uid()) and i.created_at > now() - make_interval(secs => window_seconds);
$$;

revoke all on function private.member_emails(uuid),
  private.create_invitation(uuid, text, public.workspace_role, bytea, integer, integer),
  private.own_recent_invitations(integer)
  from public;
grant execute on function private.member_emails(uuid),
  private.create_invitation(uuid, text, public.workspace_role, bytea, integer, integer),
  private.own_recent_invitations(integer)
  to authenticated;
