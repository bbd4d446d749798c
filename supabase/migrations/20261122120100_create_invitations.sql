-- Invitations to a workspace (SPEC §4, §6), held by the database whichever way a request comes in:
--  * an invitation is made only by private.create_invitation, which holds every limit: the member limit,
--    the inviter's hourly budget and the per-address throttle (the API never inserts into the table
--    itself, so no API role may: a direct insert through the Data API would skip them all);
--  * one address receives at most INVITATIONS_PER_RECIPIENT_PER_DAY invitations a day, from all
--    workspaces together, so that nobody can mail-bomb a stranger;
--  * an invitation dies with its inviter's authority: removing or demoting a member revokes the pending
--    invitations they could no longer make, and accepting re-checks the inviter;
--  * accepting needs a confirmed e-mail address (the address is the only thing binding an invitation
--    to a person, and while confirmations are off anyone can sign up with any address);
--  * under the API roles an invitation's status moves only from pending to revoked.
-- The functions raise P0001 with the API's error code as the hint; the API's queries modules translate it.

-- An invitation past its expiry is still `pending` in the table and reads as expired (SPEC §4). Inviting
-- the same address again retires it for good as `expired`, which frees the one-pending-per-address index.
create type public.invitation_status as enum ('pending', 'accepted', 'revoked', 'expired');

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
-- Who sent an invitation, and when: the hourly budget counts a person's invitations in all workspaces.
create index invitations_invited_by_idx on public.invitations (invited_by, created_at);
create trigger invitations_bump_version before update on public.invitations
  for each row execute function private.bump_version();

-- SPEC §4: only a pending invitation moves. Under the API roles (a /rest/v1 call, or the API running
-- as the caller) the one move is pending → revoked; accepting and expiring happen in the security
-- definer functions below, which run as their owner. Not security definer itself: current_user is who
-- runs the statement.
create function private.guard_invitation_status()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status is distinct from old.status
     and (old.status <> 'pending' or (new.status <> 'revoked' and current_user in ('anon', 'authenticated')))
  then
    raise exception 'an invitation moves only from pending, and people may only revoke it'
      using errcode = 'P0001', hint = 'forbidden';
  end if;
  return new;
end;
$$;
revoke all on function private.guard_invitation_status() from public;
create trigger invitations_guard_status before update of status on public.invitations
  for each row execute function private.guard_invitation_status();

alter table public.invitations enable row level security;
create policy "Admins can read their workspaces' invitations" on public.invitations
  for select to authenticated using ((select private.is_admin(workspace_id)));
create policy "Admins can revoke their workspaces' invitations" on public.invitations
  for update to authenticated
  using ((select private.is_admin(workspace_id)))
  with check ((select private.is_admin(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on public.invitations
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
revoke all on table public.invitations from anon, authenticated;
grant select on public.invitations to authenticated;
grant update (status) on public.invitations to authenticated;

-- The limits these functions enforce. The same values as supabase/functions/_shared/limits.ts
-- (MEMBERS_PER_WORKSPACE, INVITATION_LIFETIME_DAYS, SENSITIVE_CREATIONS_PER_HOUR,
-- INVITATIONS_PER_RECIPIENT_PER_DAY); tests/db/invitation-rules.test.ts fails when they differ.
create function private.invitation_limits()
returns table (
  members_per_workspace integer,
  invitation_lifetime_days integer,
  sensitive_creations_per_hour integer,
  invitations_per_recipient_per_day integer
)
language sql
immutable
set search_path = ''
as $$
  select 50, 7, 20, 5;
$$;
revoke all on function private.invitation_limits() from public;

-- Every invitation sent in the last day, by address. Not public.invitations: deleting a workspace
-- deletes its invitations, which would let an inviter delete, recreate and invite the same stranger
-- again without end. Only the SHA-256 of the lower-cased address is kept, and only for a day.
create table private.invitations_sent (
  recipient_hash bytea not null check (octet_length(recipient_hash) = 32),
  created_at timestamptz not null default now()
);
create index invitations_sent_recipient_idx on private.invitations_sent (recipient_hash, created_at);
create index invitations_sent_created_at_idx on private.invitations_sent (created_at);
alter table private.invitations_sent enable row level security;
revoke all on table private.invitations_sent from public, anon, authenticated;

-- Invites `invitee_email` to `workspace` as `invitee_role` for the caller, who must be an owner (any
-- role) or an admin (any role but owner), within the caller's hourly budget. Members and unexpired
-- pending invitations together stay under the member limit; an address that is a member, or has a
-- pending invitation, cannot be invited again; an address invited too often today must wait.
-- Raises P0001 with the API's error code as the hint; with `rate_limited`, the detail is the number of
-- seconds until the oldest counted invitation leaves its window (Retry-After).
create function private.create_invitation(
  workspace uuid,
  invitee_email text,
  invitee_role public.workspace_role,
  invitation_token_hash bytea
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
  recipient bytea := sha256(convert_to(lower(btrim(invitee_email)), 'UTF8'));
  limits record;
  recent record;
  created public.invitations;
begin
  select * into limits from private.invitation_limits();
  if caller is null then
    raise exception 'no caller' using errcode = 'P0001', hint = 'unauthenticated';
  elsif caller_role is null then
    raise exception 'not a member' using errcode = 'P0001', hint = 'not_found';
  elsif not (caller_role = 'owner' or (caller_role = 'admin' and invitee_role <> 'owner')) then
    raise exception 'role may not invite' using errcode = 'P0001', hint = 'forbidden';
  end if;
  -- Locks in one order (the caller, the workspace, the address), so that concurrent invitations queue
  -- and cannot both pass a limit. The API takes the caller's lock first too, to check the hourly budget
  -- and answer it precisely; this check holds for a direct call.
  perform pg_advisory_xact_lock(hashtextextended('create_invitation:' || caller::text, 0));
  select count(*) as n,
    ceil(extract(epoch from min(i.created_at) + interval '1 hour' - now()))::integer as retry_after
  into recent
  from public.invitations i where i.invited_by = caller and i.created_at > now() - interval '1 hour';
  if recent.n >= limits.sensitive_creations_per_hour then
    raise exception 'too many invitations this hour' using errcode = 'P0001', hint = 'rate_limited',
      detail = greatest(1, recent.retry_after)::text;
  end if;
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
     >= limits.members_per_workspace
  then
    raise exception 'member limit reached' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('invitations_to:' || address, 0));
  delete from private.invitations_sent s where s.created_at <= now() - interval '1 day';
  select count(*) as n,
    ceil(extract(epoch from min(s.created_at) + interval '1 day' - now()))::integer as retry_after
  into recent
  from private.invitations_sent s where s.recipient_hash = recipient and s.created_at > now() - interval '1 day';
  if recent.n >= limits.invitations_per_recipient_per_day then
    raise exception 'this address was invited too often today' using errcode = 'P0001',
      hint = 'rate_limited', detail = greatest(1, recent.retry_after)::text;
  end if;
  insert into private.invitations_sent (recipient_hash) values (recipient);
  insert into public.invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
    values (workspace, btrim(invitee_email), invitee_role, invitation_token_hash, caller,
      now() + make_interval(days => limits.invitation_lifetime_days))
    returning * into created;
  return created;
end;
$$;
revoke all on function private.create_invitation(uuid, text, public.workspace_role, bytea) from public;
grant execute on function private.create_invitation(uuid, text, public.workspace_role, bytea) to authenticated;

-- How many invitations the caller created in the last `window_seconds`, in any workspace (even those
-- where they are no longer an admin, whose invitations RLS hides from them), and in how many seconds
-- the oldest of them leaves the window (null when there is none).
create function private.own_recent_invitations(window_seconds integer)
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
revoke all on function private.own_recent_invitations(integer) from public;
grant execute on function private.own_recent_invitations(integer) to authenticated;

-- Whether `inviter` may, right now, grant `invited_role` in `workspace` (SPEC §6: owners any role,
-- admins any but owner).
create function private.may_invite(workspace uuid, inviter uuid, invited_role public.workspace_role)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.memberships m
    where m.workspace_id = workspace and m.user_id = inviter
      and (m.role = 'owner' or (m.role = 'admin' and invited_role <> 'owner'))
  );
$$;
revoke all on function private.may_invite(uuid, uuid, public.workspace_role) from public;

-- Accepts a pending invitation for the caller, whose confirmed e-mail must be the invited one, while its
-- inviter may still grant its role (an invitation whose inviter lost that right reads as revoked).
create function private.accept_invitation(invitation_token_hash bytea)
returns public.memberships
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  caller_email text;
  caller_confirmed boolean;
  invitation public.invitations;
  joined public.memberships;
begin
  select u.email, u.email_confirmed_at is not null into caller_email, caller_confirmed
  from auth.users u where u.id = caller;
  select * into invitation from public.invitations i where i.token_hash = invitation_token_hash for update;
  if invitation.id is null or invitation.status = 'accepted' then
    raise exception 'no such invitation' using errcode = 'P0001', hint = 'not_found';
  elsif invitation.status = 'revoked'
     or not private.may_invite(invitation.workspace_id, invitation.invited_by, invitation.role)
  then
    raise exception 'invitation revoked' using errcode = 'P0001', hint = 'invitation_revoked';
  elsif invitation.expires_at <= now() then
    raise exception 'invitation expired' using errcode = 'P0001', hint = 'invitation_expired';
  elsif lower(invitation.email) <> lower(coalesce(caller_email, '')) then
    raise exception 'invitation is for another address' using errcode = 'P0001', hint = 'forbidden';
  elsif not caller_confirmed then
    raise exception 'e-mail address not confirmed' using errcode = 'P0001', hint = 'email_not_confirmed';
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
revoke all on function private.accept_invitation(bytea) from public;
grant execute on function private.accept_invitation(bytea) to authenticated;

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

-- A member removed, or demoted below what they could invite, loses their pending invitations: those the
-- new role could not make (all of them for member, viewer or gone; owner invitations for admin).
-- Security definer: a member who leaves cannot update invitations themselves. A workspace being deleted
-- takes its invitations with it.
create function private.revoke_invitations_beyond_authority()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (tg_op = 'UPDATE' and new.role = old.role)
     or not exists (select 1 from public.workspaces w where w.id = old.workspace_id)
  then
    return coalesce(new, old);
  end if;
  update public.invitations i set status = 'revoked'
  where i.workspace_id = old.workspace_id and i.invited_by = old.user_id and i.status = 'pending'
    and not (tg_op = 'UPDATE' and (new.role = 'owner' or (new.role = 'admin' and i.role <> 'owner')));
  return coalesce(new, old);
end;
$$;
revoke all on function private.revoke_invitations_beyond_authority() from public;
create trigger memberships_revoke_invitations after update of role or delete on public.memberships
  for each row execute function private.revoke_invitations_beyond_authority();
