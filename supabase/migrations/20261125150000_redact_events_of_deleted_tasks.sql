-- Deleting a task or a project takes its content out of the event log too (issue 11, item 10), as
-- soft-deleting a comment already takes the comment's body out (…_create_comments.sql). The log keeps
-- its events, for 30 days, so that the feed still tells what happened; but a deleted task's events no
-- longer hold its description, its comments' events (the comments went with it) no longer hold their
-- bodies, and a deleted project's events no longer hold its description. What stays identifies what
-- went: ids, the task's key, number and title, its status, position and labels, who acted and when.
-- The title stays because the API's task always has one and the feed must name what was deleted.
--
-- Statement-level triggers over the deleted rows, so that a project's tasks, deleted by its cascade in
-- one statement, are redacted in one update. They run after the row triggers that log `task.deleted`
-- and `project.deleted`, so those events are redacted too.

create function private.redact_events_of_deleted_tasks()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.events e
    set data = case
        when e.type like 'comment.%' then jsonb_set(e.data, '{body}', 'null'::jsonb)
        else jsonb_set(e.data, '{description}', '""'::jsonb)
      end,
      previous_attributes = e.previous_attributes - 'body' - 'description'
    from deleted_tasks d
    where e.task_id = d.id and (e.type like 'task.%' or e.type like 'comment.%');
  return null;
end;
$$;
revoke all on function private.redact_events_of_deleted_tasks() from public;

create trigger tasks_redact_events after delete on public.tasks
  referencing old table as deleted_tasks
  for each statement execute function private.redact_events_of_deleted_tasks();

create function private.redact_events_of_deleted_projects()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.events e
    set data = jsonb_set(e.data, '{description}', '""'::jsonb),
      previous_attributes = e.previous_attributes - 'description'
    from deleted_projects d
    where e.workspace_id = d.workspace_id and e.project_id = d.id and e.task_id is null
      and e.type like 'project.%';
  return null;
end;
$$;
revoke all on function private.redact_events_of_deleted_projects() from public;

create trigger projects_redact_events after delete on public.projects
  referencing old table as deleted_projects
  for each statement execute function private.redact_events_of_deleted_projects();
