-- Projects (SPEC §3, §4): a workspace's boards, addressed by a short key (`ENG`) that prefixes their
-- tasks' numbers. Members read them; admins and owners create, edit, archive and delete them.

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  key text not null check (char_length(key) between 2 and 10 and key ~ '^[A-Z][A-Z0-9]+$'),
  name text not null check (char_length(btrim(name)) between 1 and 80),
  description text not null default '' check (char_length(description) <= 20000),
  archived_at timestamptz,
  -- The number the next task gets (ENG-1, ENG-2, …); allocated under the project row's lock.
  next_task_number integer not null default 1 check (next_task_number >= 1),
  created_by uuid references auth.users (id) on delete set null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- How many tasks the project has, for the limit of 20,000 (TASKS_PER_PROJECT in limits.ts): written
  -- under the project row's lock by the trigger that numbers tasks, and by deletes, so that a create
  -- need not count every task of a big project while it holds that lock.
  task_count integer not null default 0 check (task_count >= 0),
  unique (workspace_id, key)
);
create index projects_workspace_id_created_at_idx on public.projects (workspace_id, created_at, id);
create index projects_created_by_idx on public.projects (created_by);
-- Only the project's own fields: taking a task number or counting a task is not a change to the
-- project, so its version moves only with its own fields.
create trigger projects_bump_version before update of key, name, description, archived_at on public.projects
  for each row execute function private.bump_version();
create trigger projects_hold_workspace_limit before insert on public.projects
  for each row execute function private.hold_workspace_limit();

alter table public.projects enable row level security;
create policy "Members can read their workspaces' projects" on public.projects
  for select to authenticated using ((select private.is_member(workspace_id)));
create policy "Admins can create projects" on public.projects
  for insert to authenticated
  with check (created_by = (select auth.uid()) and (select private.is_admin(workspace_id)));
create policy "Admins can edit projects" on public.projects
  for update to authenticated
  using ((select private.is_admin(workspace_id)))
  with check ((select private.is_admin(workspace_id)));
create policy "Admins can delete projects" on public.projects
  for delete to authenticated using ((select private.is_admin(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on public.projects
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

revoke all on table public.projects from anon, authenticated;
grant select, delete on public.projects to authenticated;
grant insert (workspace_id, key, name, description, created_by) on public.projects to authenticated;
grant update (key, name, description, archived_at) on public.projects to authenticated;

-- A project as the API answers it (GET /v1/workspaces/{slug}/projects/{key}), for event data and for
-- the export, which selects it as the caller: a pure function of the row it is given.
create function private.project_json(project public.projects)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'project',
    'id', project.id,
    'workspace_id', project.workspace_id,
    'key', project.key,
    'name', project.name,
    'description', project.description,
    'archived', project.archived_at is not null,
    'archived_at', private.iso_timestamp(project.archived_at),
    'created_by', project.created_by,
    'version', project.version,
    'created_at', private.iso_timestamp(project.created_at),
    'updated_at', private.iso_timestamp(project.updated_at)
  );
$$;
revoke all on function private.project_json(public.projects) from public;
grant execute on function private.project_json(public.projects) to authenticated;
