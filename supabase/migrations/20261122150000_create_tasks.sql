-- Tasks (SPEC §3, §4): the cards on a project's board. A task's number is allocated per project under
-- the project row's lock (ENG-1, ENG-2, … without gaps or duplicates); its place in a column is a
-- fractional-index key (`position`, compared bytewise) that the API computes, so a move writes one row.
-- A task's labels are part of its versioned state: they live on the task as `label_ids`
-- (docs/decisions/0009).

create type public.task_priority as enum ('none', 'low', 'medium', 'high', 'urgent');

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  -- Copied from the project by the trigger below: RLS and the workspace's lists read it without a join.
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  project_id uuid not null references public.projects (id) on delete cascade,
  number integer not null check (number >= 1),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  description text not null default '' check (char_length(description) <= 20000),
  -- Text with a check rather than an enum: comparing enums (`enum_eq`) is not LEAKPROOF, so under RLS
  -- Postgres could not use `status = …` as an index condition, nor the board's keyset comparison
  -- (docs/decisions/0012); `texteq` is.
  status text not null default 'todo'
    check (status in ('backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled')),
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

-- Board order runs through the columns left to right. An immutable SQL function of one CASE, so Postgres
-- inlines it (into leakproof text comparisons) in queries and in the index below alike. Without
-- `set search_path` (which would stop the inlining), so its operator is named with its schema: no
-- search_path can make the index compute another rank.
create function private.task_status_rank(status text)
returns integer
language sql
immutable
parallel safe
as $$
  select case
    when status operator(pg_catalog.=) 'backlog' then 1
    when status operator(pg_catalog.=) 'todo' then 2
    when status operator(pg_catalog.=) 'in_progress' then 3
    when status operator(pg_catalog.=) 'in_review' then 4
    when status operator(pg_catalog.=) 'done' then 5
    when status operator(pg_catalog.=) 'canceled' then 6
  end
$$;
revoke all on function private.task_status_rank(text) from public;
grant execute on function private.task_status_rank(text) to authenticated;

-- The board's order over all its columns (`sort=position` without a status filter), paged by keyset.
create index tasks_project_board_order_idx on public.tasks (project_id, private.task_status_rank(status), position);

-- `q` on the task list (`title ilike '%q%' or description ilike '%q%'`) would read every task of the
-- project and match each description character by character, keeping a core busy for as long as a caller
-- liked (issue 11). Trigram indexes let the match start from the tasks that hold every trigram of `q`
-- (the statement timeout bounds what is left, and the API caps `q` and concurrent searches).
--
-- pg_trgm is a trusted extension, available on hosted Supabase, where extensions live in schema
-- `extensions` (as the local stand-in's bootstrap makes them): its operator class is named with that
-- schema, and the `ilike` of the list (pg_catalog's ~~*) is one of the operators the class indexes.
create extension if not exists pg_trgm with schema extensions;

create index tasks_title_trgm_idx on public.tasks using gin (title extensions.gin_trgm_ops);
create index tasks_description_trgm_idx on public.tasks using gin (description extensions.gin_trgm_ops);

-- Under RLS the list cannot use those indexes: `ilike` is not leakproof, so Postgres must apply the
-- policy to a row before it may match the row's text, and an index would match first. This function
-- matches as its owner (no RLS, so the indexes serve), within the caller's workspaces only, and answers
-- nothing but ids, which the list then reads as the caller, under RLS.
-- `pattern` is an ILIKE pattern (the API escapes the caller's `%`, `_` and `\`). Parameters by number:
-- tests/db/task-list-plans.test.ts explains this very body.
create function private.task_ids_matching(project_id uuid, pattern text)
returns setof uuid
language sql
stable
security definer
-- A search finds a few tasks, not the thousand Postgres assumes of a set-returning function: the list
-- then reads each by its key instead of reading the whole project to join.
rows 10
set search_path = ''
as $$
  select t.id from public.tasks t
  where t.project_id = $1
    and t.workspace_id in (select private.caller_workspace_ids())
    and (t.title ilike $2 or t.description ilike $2)
$$;

revoke all on function private.task_ids_matching(uuid, text) from public;
grant execute on function private.task_ids_matching(uuid, text) to authenticated;

-- Before a task is written: it takes its workspace from its project, gets the next number on insert,
-- and may only be written while the project is active (SPEC §4: archived projects are read-only).
-- Numbers are taken under the project row's lock, and so is the project's task_count, which keeps the
-- count under the limit (TASKS_PER_PROJECT in limits.ts): an insert takes the next number and counts
-- itself, a delete uncounts itself. Other writes take no lock. Security definer: the caller may not
-- update the project's counters, and need not.
create function private.place_task_in_project()
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
    update public.projects p
      set next_task_number = p.next_task_number + 1, task_count = p.task_count + 1
      where p.id = new.project_id
      returning * into project;
    new.number := project.next_task_number - 1;
    if project.task_count > 20000 then
      raise exception 'task limit reached' using errcode = 'P0001', hint = 'limit_reached';
    end if;
  elsif tg_op = 'DELETE' then
    -- No row when the project itself is being deleted (the tasks go with it).
    update public.projects p set task_count = p.task_count - 1
      where p.id = old.project_id
      returning * into project;
  else
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
revoke all on function private.place_task_in_project() from public;
create trigger tasks_place_in_project before insert or update or delete on public.tasks
  for each row execute function private.place_task_in_project();

-- SPEC §4: entering `done` sets completed_at; leaving it clears it.
create function private.track_task_completion()
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
revoke all on function private.track_task_completion() from public;
create trigger tasks_track_completion before insert or update of status on public.tasks
  for each row execute function private.track_task_completion();

-- SPEC §5: the assignee is a member of the task's workspace who is not a viewer; labels are the
-- workspace's own, each once. The API checks both first to answer precisely; this is the backstop.
create function private.check_task_references()
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
revoke all on function private.check_task_references() from public;
-- Named to run after tasks_place_in_project (triggers fire in name order), which sets workspace_id.
create trigger tasks_recheck_references before insert or update of assignee_id, label_ids on public.tasks
  for each row execute function private.check_task_references();

-- A deleted label comes off every task that has it; a member who leaves is unassigned from its tasks.
create function private.forget_deleted_label()
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
revoke all on function private.forget_deleted_label() from public;
create trigger labels_forget_on_delete after delete on public.labels
  for each row execute function private.forget_deleted_label();

create function private.unassign_departed_member()
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
revoke all on function private.unassign_departed_member() from public;
create trigger memberships_unassign_departed after delete or update of role on public.memberships
  for each row execute function private.unassign_departed_member();

-- Each policy compares the row's workspace with the caller's workspaces, computed once per statement
-- (see private.caller_workspace_ids).
alter table public.tasks enable row level security;
create policy "Members can read their workspaces' tasks" on public.tasks
  for select to authenticated using (workspace_id in (select private.caller_workspace_ids()));
create policy "Editors can create tasks" on public.tasks
  for insert to authenticated
  with check (
    created_by = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids())
  );
create policy "Editors can change tasks" on public.tasks
  for update to authenticated
  using (workspace_id in (select private.caller_editable_workspace_ids()))
  with check (workspace_id in (select private.caller_editable_workspace_ids()));
create policy "Editors can delete tasks" on public.tasks
  for delete to authenticated using (workspace_id in (select private.caller_editable_workspace_ids()));
create policy "Workspaces that require MFA admit aal2 only" on public.tasks
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );

-- Column grants only, so they are the whole of what a caller may write (never number, version,
-- completed_at).
revoke all on table public.tasks from anon, authenticated;
grant select, delete on public.tasks to authenticated;
grant insert (project_id, title, description, status, priority, assignee_id, due_date, position, label_ids, created_by)
  on public.tasks to authenticated;
grant update (title, description, status, priority, assignee_id, due_date, position, label_ids)
  on public.tasks to authenticated;

-- A task as the API answers it (GET /v1/tasks/{id}), given its project's key. A page of tasks is built
-- as JSON in SQL, one call per row, so this is what Postgres inlines into the query: a single-expression
-- SQL function without SET clauses, security invoker, naming every function with its schema so that no
-- caller's search_path can change what it calls (docs/decisions/0012). The list passes the project's
-- key, which it joins once. The export selects it as the caller too.
create function private.task_json(task public.tasks, project_key text)
returns jsonb
language sql
stable
parallel safe
as $$
  select pg_catalog.jsonb_build_object(
    'object', 'task',
    'id', task.id,
    'project_id', task.project_id,
    'key', pg_catalog.concat(project_key, '-', task.number),
    'number', task.number,
    'title', task.title,
    'description', task.description,
    'status', task.status,
    'priority', task.priority,
    'assignee_id', task.assignee_id,
    'due_date', task.due_date,
    'position', task.position,
    'label_ids', pg_catalog.to_jsonb(task.label_ids),
    'created_by', task.created_by,
    'completed_at', private.iso_timestamp(task.completed_at),
    'version', task.version,
    'created_at', private.iso_timestamp(task.created_at),
    'updated_at', private.iso_timestamp(task.updated_at)
  )
$$;

-- The same, looking the key up: for event data and a single written row. Security invoker: it reads the
-- project as the caller, so called with a made-up row it tells nothing the caller could not read anyway;
-- the event triggers that call it are security definer themselves.
create function private.task_json(task public.tasks)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.task_json(task, p.key) from public.projects p where p.id = task.project_id;
$$;

revoke all on function private.task_json(public.tasks, text), private.task_json(public.tasks) from public;
grant execute on function private.task_json(public.tasks, text), private.task_json(public.tasks) to authenticated;

-- The workspace of a task in one of the caller's workspaces, MFA ones included: what the API needs at
-- aal1 to answer `403 mfa_required` instead of `404`.
create function private.caller_workspace_of_task(task uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select t.workspace_id from public.tasks t
  where t.id = task and t.workspace_id in (select private.caller_workspace_ids());
$$;
revoke all on function private.caller_workspace_of_task(uuid) from public;
grant execute on function private.caller_workspace_of_task(uuid) to authenticated;
