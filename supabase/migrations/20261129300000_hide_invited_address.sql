-- The invitation page showed the invited address to anyone signed in who held the link, even after it
-- was used (issue 23, item 8). The address is now told only to the person it belongs to, and only while
-- the invitation can still be accepted: someone else holding the link learns the workspace, the role and
-- that it is not for them; a used, revoked or expired link tells its state and no address.
create or replace function private.preview_invitation(invitation_token_hash bytea)
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
  select judged.workspace_slug, judged.workspace_name, judged.require_mfa,
    case when judged.for_caller and judged.status = 'pending' then judged.email end,
    judged.role, judged.status, judged.inviter_name, judged.expires_at, judged.for_caller,
    judged.caller_is_member
  from (
    select w.slug as workspace_slug, w.name as workspace_name, w.require_mfa, i.email, i.role,
      case
        when i.status = 'accepted' then 'accepted'
        when i.status = 'revoked' or not private.may_invite(i.workspace_id, i.invited_by, i.role) then 'revoked'
        when i.expires_at <= now() then 'expired'
        else 'pending'
      end as status,
      p.display_name as inviter_name, i.expires_at,
      lower(i.email) = lower(coalesce((select u.email from auth.users u where u.id = (select auth.uid())), ''))
        as for_caller,
      exists (
        select 1 from public.memberships m
        where m.workspace_id = i.workspace_id and m.user_id = (select auth.uid())
      ) as caller_is_member
    from public.invitations i
    join public.workspaces w on w.id = i.workspace_id
    left join public.profiles p on p.user_id = i.invited_by
    where i.token_hash = invitation_token_hash
  ) judged;
$$;
