-- The workspace MFA rule (SPEC §4: a workspace with require_mfa answers aal1 sessions `mfa_required`) was
-- the API's alone, so an aal1 session could read and change such a workspace through the Data API
-- (/rest/v1). Every workspace table now has a restrictive policy, ANDed with the others: at aal1, no row
-- of a workspace that requires MFA. tests/db/direct-data-api-attacks.test.ts finds every table in public
-- with a workspace_id and fails when one lacks it.
--
-- Like 20261122151000, the policy compares the row's workspace with a set computed once per statement
-- (an initPlan), never a function per row; at aal2 the first term is true and no row pays anything.
-- Only the caller's own workspaces need be in the set: the permissive policies hide all others.

create or replace function private.caller_mfa_workspace_ids()
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

create policy "Workspaces that require MFA admit aal2 only" on public.workspaces
  as restrictive for all to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2' or id not in (select private.caller_mfa_workspace_ids()))
  with check ((select auth.jwt() ->> 'aal') = 'aal2' or id not in (select private.caller_mfa_workspace_ids()));

create policy "Workspaces that require MFA admit aal2 only" on public.memberships
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

create policy "Workspaces that require MFA admit aal2 only" on public.invitations
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

create policy "Workspaces that require MFA admit aal2 only" on public.projects
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

create policy "Workspaces that require MFA admit aal2 only" on public.labels
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

create policy "Workspaces that require MFA admit aal2 only" on public.tasks
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

create policy "Workspaces that require MFA admit aal2 only" on public.comments
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

create policy "Workspaces that require MFA admit aal2 only" on public.events
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

-- What the API still needs at aal1, to answer `403 mfa_required` instead of `404` (and to list the
-- caller's workspaces, MFA ones included, as before): the caller's own memberships with their
-- workspace's settings, and the workspace of a task or comment in one of the caller's workspaces.
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

create or replace function private.caller_workspace_of_task(task uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select t.workspace_id from public.tasks t
  where t.id = task and t.workspace_id in (select private.caller_workspace_ids());
$$;

create or replace function private.caller_workspace_of_comment(comment uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select c.workspace_id from public.comments c
  where c.id = comment and c.workspace_id in (select private.caller_workspace_ids());
$$;

revoke execute on function private.caller_mfa_workspace_ids(), private.caller_workspaces(),
  private.caller_workspace_of_task(uuid), private.caller_workspace_of_comment(uuid)
  from public, anon;
grant execute on function private.caller_mfa_workspace_ids(), private.caller_workspaces(),
  private.caller_workspace_of_task(uuid), private.caller_workspace_of_comment(uuid)
  to authenticated;
