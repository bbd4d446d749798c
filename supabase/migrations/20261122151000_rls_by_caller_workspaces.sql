-- Policies on the tables that grow with use (tasks, comments, events) called private.is_member(workspace_id)
-- for every row a statement reads: the argument differs per row, so Postgres cannot evaluate it once, and
-- a security definer function costs a context switch each time. `npm run bench` measured the board's list
-- at 31× the same SQL without RLS. Instead, each policy compares the row's workspace with the caller's
-- workspaces, computed once per statement (Supabase's RLS performance guide: wrap in a select so it
-- becomes an initPlan). Same rules, same tests (tests/db/rls-matrix.test.ts).

-- The workspaces the caller is a member of, and those where they may edit (any role but viewer).
create or replace function private.caller_workspace_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id from public.memberships m where m.user_id = (select auth.uid());
$$;

create or replace function private.caller_editable_workspace_ids()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.workspace_id from public.memberships m where m.user_id = (select auth.uid()) and m.role <> 'viewer';
$$;

revoke execute on function private.caller_workspace_ids(), private.caller_editable_workspace_ids()
  from public, anon;
grant execute on function private.caller_workspace_ids(), private.caller_editable_workspace_ids()
  to authenticated;

alter policy "Members can read their workspaces' tasks" on public.tasks
  using (workspace_id in (select private.caller_workspace_ids()));
alter policy "Editors can create tasks" on public.tasks
  with check (
    created_by = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids())
  );
alter policy "Editors can change tasks" on public.tasks
  using (workspace_id in (select private.caller_editable_workspace_ids()))
  with check (workspace_id in (select private.caller_editable_workspace_ids()));
alter policy "Editors can delete tasks" on public.tasks
  using (workspace_id in (select private.caller_editable_workspace_ids()));

alter policy "Members can read their workspaces' comments" on public.comments
  using (workspace_id in (select private.caller_workspace_ids()));
alter policy "Editors can comment as themselves" on public.comments
  with check (
    author_id = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids())
  );
alter policy "Editors can edit their own comments" on public.comments
  using (author_id = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids()))
  with check (
    author_id = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids())
  );

alter policy "Members can read their workspaces' events" on public.events
  using (workspace_id in (select private.caller_workspace_ids()));
