-- Tasks (SPEC §3, §4): the cards on a project's board. A task's number is allocated per project under
-- the project row's lock (ENG-1, ENG-2, … without gaps or duplicates); its place in a column is a
-- fractional-index key (`position`, compared bytewise) that the API computes, so a move writes one row.
-- A task's labels are part of its versioned state: they live on the task as `label_ids`
-- (docs/decisions/0009).

create type public.task_status as enum ('backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled');
create type public.task_priority as enum ('none', 'low', 'medium', 'high', 'urgent');

-- A task's number counts tasks ever made in the project; the trigger below bumps it, which is not a
-- change to the project itself, so the project's version moves only with its own fields.
drop trigger projects_bump_version on public.projects;
create trigger projects_bump_version before update of key, name, description, archived_at on public.projects
  for each row execute function private.bump_version();

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  -- Copied from the project by the trigger below: RLS and the workspace's lists read it without a join.
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  number integer not null check (number >= 1),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  description text not null default '' check (char_length(description) <= 20000),
  status public.task_status not null default 'todo',
  priority public.task_priority not null default 'none',
  assignee_id uuid references auth.users (id) on delete set null,
  due_date date,
  position text collate "C" not null check (char_length(position) between 1 and 200),
  label_ids uuid[] not null default '{}' check (cardinality(label_ids) <= 10),
  created_by uuid references auth.users (id) on delete set null,
  completed_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (project_id, number),
  -- Two tasks never share a place in a column: the board's order is total.
  unique (project_id, status, position)
);
create index tasks_workspace_id_idx on public.tasks (workspace_id);
create index tasks_project_updated_at_idx on public.tasks (project_id, updated_at, id);
create index tasks_project_created_at_idx on public.tasks (project_id, created_at, id);
create index tasks_assignee_id_idx on public.tasks (assignee_id);
create index tasks_created_by_idx on public.tasks (created_by);
create index tasks_label_ids_idx on public.tasks using gin (label_ids);
create trigger tasks_bump_version before update on public.tasks
  for each row execute function private.bump_version();

-- Before a task is written: it takes its workspace from its project, gets the next number on insert,
-- and may only be written while the project is active (SPEC §4: archived projects are read-only).
-- Numbers are taken under the project row's lock, which also keeps the count under the limit
-- (TASKS_PER_PROJECT in limits.ts); other writes take no lock. Security definer: the caller may not
-- update the project's counter, and need not.
create or replace function private.place_task_in_project()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  project public.projects;
begin
  if tg_op = 'UPDATE' and new.project_id <> old.project_id then
    raise exception 'a task stays in its project' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  if tg_op = 'INSERT' then
    update public.projects p set next_task_number = p.next_task_number + 1
      where p.id = new.project_id
      returning * into project;
    new.number := project.next_task_number - 1;
    if (select count(*) from public.tasks t where t.project_id = new.project_id) >= 20000 then
      raise exception 'task limit reached' using errcode = 'P0001', hint = 'limit_reached';
    end if;
  else
    -- Null when the project itself is being deleted (the tasks go with it).
    select * into project from public.projects p where p.id = old.project_id;
  end if;
  -- Only the caller's own writes: a label's deletion or a member's departure, which reach tasks through
  -- triggers (pg_trigger_depth() > 1), still take the label or the assignee off archived projects' tasks.
  if project.archived_at is not null and pg_trigger_depth() = 1 then
    raise exception 'the project is archived' using errcode = 'P0001', hint = 'project_archived';
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;
  new.workspace_id := project.workspace_id;
  return new;
end;
$$;
create trigger tasks_place_in_project before insert or update or delete on public.tasks
  for each row execute function private.place_task_in_project();

-- SPEC §4: entering `done` sets completed_at; leaving it clears it.
create or replace function private.track_task_completion()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = 'done' and (tg_op = 'INSERT' or old.status <> 'done') then
    new.completed_at := now();
  elsif new.status <> 'done' then
    new.completed_at := null;
  end if;
  return new;
end;
$$;
create trigger tasks_track_completion before insert or update of status on public.tasks
  for each row execute function private.track_task_completion();

-- SPEC §5: the assignee is a member of the task's workspace who is not a viewer; labels are the
-- workspace's own, each once. The API checks both first to answer precisely; this is the backstop.
create or replace function private.check_task_references()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.assignee_id is not null and not exists (
    select 1 from public.memberships m
    where m.workspace_id = new.workspace_id and m.user_id = new.assignee_id and m.role <> 'viewer'
  ) then
    raise exception 'the assignee cannot be assigned tasks here' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  if cardinality(new.label_ids) <> (
    select count(*) from public.labels l where l.workspace_id = new.workspace_id and l.id = any (new.label_ids)
  ) then
    raise exception 'a label is not the workspace''s, or appears twice' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  return new;
end;
$$;
-- Named to run after tasks_place_in_project (triggers fire in name order), which sets workspace_id.
create trigger tasks_recheck_references before insert or update of assignee_id, label_ids on public.tasks
  for each row execute function private.check_task_references();

-- A deleted label comes off every task that has it; a member who leaves is unassigned from its tasks.
create or replace function private.forget_deleted_label()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.tasks t set label_ids = array_remove(t.label_ids, old.id)
  where t.workspace_id = old.workspace_id and t.label_ids @> array[old.id];
  return old;
end;
$$;
create trigger labels_forget_on_delete after delete on public.labels
  for each row execute function private.forget_deleted_label();

create or replace function private.unassign_departed_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' or new.role = 'viewer' then
    update public.tasks t set assignee_id = null
    where t.workspace_id = old.workspace_id and t.assignee_id = old.user_id;
  end if;
  return coalesce(new, old);
end;
$$;
create trigger memberships_unassign_departed after delete or update of role on public.memberships
  for each row execute function private.unassign_departed_member();

alter table public.tasks enable row level security;
create policy "Members can read their workspaces' tasks" on public.tasks
  for select to authenticated using ((select private.is_member(workspace_id)));
create policy "Editors can create tasks" on public.tasks
  for insert to authenticated
  with check (created_by = (select auth.uid()) and (select private.can_edit(workspace_id)));
create policy "Editors can change tasks" on public.tasks
  for update to authenticated
  using ((select private.can_edit(workspace_id)))
  with check ((select private.can_edit(workspace_id)));
create policy "Editors can delete tasks" on public.tasks
  for delete to authenticated using ((select private.can_edit(workspace_id)));

-- Supabase's default privileges grant every table to anon and authenticated: take them back, so the
-- column grants below are the whole of what a caller may write (never number, version, completed_at).
revoke all on table public.tasks from anon, authenticated;
grant select, delete on public.tasks to authenticated;
grant insert (project_id, title, description, status, priority, assignee_id, due_date, position, label_ids, created_by)
  on public.tasks to authenticated;
grant update (title, description, status, priority, assignee_id, due_date, position, label_ids)
  on public.tasks to authenticated;
