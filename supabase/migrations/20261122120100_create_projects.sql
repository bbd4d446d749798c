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
  unique (workspace_id, key)
);
create index projects_workspace_id_created_at_idx on public.projects (workspace_id, created_at, id);
create index projects_created_by_idx on public.projects (created_by);
create trigger projects_bump_version before update on public.projects
  for each row execute function private.bump_version();

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

grant select, delete on public.projects to authenticated;
grant insert (workspace_id, key, name, description, created_by) on public.projects to authenticated;
grant update (key, name, description, archived_at) on public.projects to authenticated;
