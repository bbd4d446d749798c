-- Creating a task counted all of its project's tasks, for the limit of 20,000 (TASKS_PER_PROJECT in
-- limits.ts), while holding the project row's lock: creates in a big project queued behind an index scan
-- of every task (about a millisecond at 10,000). The project now keeps the count, written under that same
-- lock by the trigger that numbers tasks, and by deletes.
alter table public.projects add column task_count integer not null default 0 check (task_count >= 0);
update public.projects p set task_count = (select count(*) from public.tasks t where t.project_id = p.id);

-- As before (20261122150000), but counting instead of scanning: an insert takes the next number and
-- counts itself, a delete uncounts itself; both under the project row's lock.
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
