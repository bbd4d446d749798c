-- What the invitation page shows before the invited person accepts (issue 15): the workspace, the role,
-- who invited them, the state of the invitation and whether it is for the caller. Security definer: the
-- invited person cannot read the invitation, its workspace or the inviter's profile through RLS until
-- they have joined; the token's hash is the proof that they were sent the link. Reads only. The state is
-- judged as private.accept_invitation judges it: an invitation whose inviter may no longer grant its
-- role reads as revoked, a pending one past its expiry as expired.
create function private.preview_invitation(invitation_token_hash bytea)
returns table (
  workspace_slug text,
  workspace_name text,
  require_mfa boolean,
  email text,
  role public.workspace_role,
  status text,
  inviter_name text,
  expires_at timestamptz,
  for_caller boolean,
  caller_is_member boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select w.slug, w.name, w.require_mfa, i.email, i.role,
    case
      when i.status = 'accepted' then 'accepted'
      when i.status = 'revoked' or not private.may_invite(i.workspace_id, i.invited_by, i.role) then 'revoked'
      when i.expires_at <= now() then 'expired'
      else 'pending'
    end,
    p.display_name, i.expires_at,
    lower(i.email) = lower(coalesce((select u.email from auth.users u where u.id = (select auth.uid())), '')),
    exists (
      select 1 from public.memberships m
      where m.workspace_id = i.workspace_id and m.user_id = (select auth.uid())
    )
  from public.invitations i
  join public.workspaces w on w.id = i.workspace_id
  left join public.profiles p on p.user_id = i.invited_by
  where i.token_hash = invitation_token_hash;
$$;
revoke all on function private.preview_invitation(bytea) from public;
grant execute on function private.preview_invitation(bytea) to authenticated;
