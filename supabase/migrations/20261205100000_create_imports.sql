-- Imports (docs/product.md#imports): a Trello board, a CSV or a Tasklane export, written in one
-- transaction as the caller. Each imported project and task remembers where it came from (`source_id`,
-- such as `trello:<card id>`), so the same file imported again finds its project and skips the tasks it
-- made before. public.imports keeps what each import did, for GET …/imports/{id}. Its policies are in
-- the next migration, on their own (docs/deploy.md, step 5).

alter table public.projects add column source_id text check (char_length(source_id) between 1 and 300);
create unique index projects_workspace_source_id_idx on public.projects (workspace_id, source_id)
  where source_id is not null;
grant insert (source_id) on public.projects to authenticated;

alter table public.tasks add column source_id text check (char_length(source_id) between 1 and 300);
create unique index tasks_project_source_id_idx on public.tasks (project_id, source_id)
  where source_id is not null;
grant insert (source_id) on public.tasks to authenticated;

-- `n` order keys after `after` (null: an empty column), each after the one before: where `n` tasks
-- arriving at the end of a column go, in their order. One call per column, not one per task.
create function private.order_keys_after(after text, n integer)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  keys text[] := array[]::text[];
  previous text := after;
begin
  for i in 1 .. n loop
    previous := private.order_key_between(previous, null);
    keys := keys || previous;
  end loop;
  return keys;
end;
$$;
revoke all on function private.order_keys_after(text, integer) from public;
grant execute on function private.order_keys_after(text, integer) to authenticated;

create table public.imports (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  source text not null check (source in ('trello', 'csv', 'tasklane')),
  -- [{id, key, name}] of the projects it made or imported into.
  projects jsonb not null check (jsonb_typeof(projects) = 'array'),
  -- {projects, tasks, comments, labels}: what it created.
  counts jsonb not null check (jsonb_typeof(counts) = 'object'),
  -- The warnings it gave, at most the API's bound on problems.
  problems jsonb not null check (jsonb_typeof(problems) = 'array' and jsonb_array_length(problems) <= 1000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index imports_workspace_id_idx on public.imports (workspace_id, created_at, id);
create index imports_created_by_idx on public.imports (created_by);
alter table public.imports enable row level security;
revoke all on table public.imports from anon, authenticated;
grant select on public.imports to authenticated;
grant insert (workspace_id, source, projects, counts, problems) on public.imports to authenticated;

-- An import tells nobody: it would otherwise notify (and mail) each assignee once for every task of a
-- board. The API sets `tasklane.importing` for the import's transaction only; events, the feed, boards
-- and webhooks see the import as usual.
create function private.skip_notifications_while_importing()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('tasklane.importing', true) = 'on' then
    return null;
  end if;
  return new;
end;
$$;
revoke all on function private.skip_notifications_while_importing() from public;
create trigger notifications_skip_while_importing before insert on public.notifications
  for each row execute function private.skip_notifications_while_importing();

-- Rows an import writes in one transaction would all share its start time (now()), and lists ordered by
-- creation (projects, a task's comments, the export) would show them in no order. While importing, each
-- takes the clock's time instead, so they keep the file's order (tasks too, for lists by creation).
create function private.stamp_in_import_order()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_setting('tasklane.importing', true) = 'on' then
    new.created_at := clock_timestamp();
    new.updated_at := new.created_at;
  end if;
  return new;
end;
$$;
revoke all on function private.stamp_in_import_order() from public;
create trigger projects_stamp_in_import_order before insert on public.projects
  for each row execute function private.stamp_in_import_order();
create trigger tasks_stamp_in_import_order before insert on public.tasks
  for each row execute function private.stamp_in_import_order();
create trigger comments_stamp_in_import_order before insert on public.comments
  for each row execute function private.stamp_in_import_order();
