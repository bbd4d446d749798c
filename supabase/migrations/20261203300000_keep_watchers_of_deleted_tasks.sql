-- A deleted task's watchers wait in the trash with it (docs/decisions/0038): restoring the task brings
-- back who watched it, as it brings back its comments and attachments. Those no longer members by then
-- do not come back.

create table private.deleted_task_watchers (
  task_id uuid not null references private.deleted_tasks (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null,
  primary key (task_id, user_id)
);
alter table private.deleted_task_watchers enable row level security;
revoke all on private.deleted_task_watchers from public, anon, authenticated;

-- Runs after tasks_trash_on_delete (triggers fire in the order of their names), which keeps the task in
-- the trash when it is deleted on its own; a task that goes with its project or workspace is not kept.
create function private.keep_deleted_task_watchers()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.deleted_task_watchers (task_id, user_id, created_at)
    select w.task_id, w.user_id, w.created_at from public.task_watchers w
    where w.task_id = old.id and exists (select 1 from private.deleted_tasks d where d.id = old.id)
  on conflict (task_id, user_id) do nothing;
  return old;
end;
$$;
revoke all on function private.keep_deleted_task_watchers() from public;
create trigger tasks_trash_watchers_on_delete before delete on public.tasks
  for each row execute function private.keep_deleted_task_watchers();

-- While private.restore_task puts the task back (before it empties the trash), its watchers come back.
create function private.restore_task_watchers()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.task_watchers (task_id, user_id, workspace_id, created_at)
    select d.task_id, d.user_id, new.workspace_id, d.created_at from private.deleted_task_watchers d
    join public.memberships m on m.workspace_id = new.workspace_id and m.user_id = d.user_id
    where d.task_id = new.id
  on conflict (task_id, user_id) do nothing;
  return null;
end;
$$;
revoke all on function private.restore_task_watchers() from public;
create trigger tasks_restore_watchers after insert on public.tasks
  for each row when (private.restoring_task(new.id))
  execute function private.restore_task_watchers();
