-- Profiles belong to no workspace, so 20261125130000's restrictive policies do not cover them; but a
-- profile is readable by whoever shares a workspace with its person, and an aal1 session could thus list,
-- through the Data API, the people of a workspace that requires MFA. Only the workspaces the caller's
-- session is admitted to count now: at aal1, those that do not require MFA.
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
      and (
        (select auth.jwt() ->> 'aal') = 'aal2'
        or mine.workspace_id not in (select private.caller_mfa_workspace_ids())
      )
  );
$$;
