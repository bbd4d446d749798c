-- A page of tasks is built as JSON in SQL, one `private.task_json(t)` per row. That function read the
-- task's project for its key and, like `private.iso_timestamp` which it called three times, had
-- `set search_path`: Postgres never inlines such a function, so each row paid for four function calls and
-- a lookup (5.7 ms for a page of 50 as the owner, 13 ms as a member). Here both become what Postgres
-- inlines into the query: single-expression SQL functions without SET clauses, security invoker, naming
-- every function with its schema so that no caller's search_path can change what they call
-- (docs/decisions/0012). The list passes the project's key, which it joins once.

create or replace function private.iso_timestamp(value timestamptz)
returns text
language sql
stable
parallel safe
as $$
  select pg_catalog.to_char(pg_catalog.timezone('UTC', value), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- A task as the API answers it (GET /v1/tasks/{id}), given its project's key.
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
revoke execute on function private.task_json(public.tasks, text) from public, anon;
grant execute on function private.task_json(public.tasks, text) to authenticated;

-- The same, looking the key up: for event data and a single written row.
create or replace function private.task_json(task public.tasks)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.task_json(task, p.key) from public.projects p where p.id = task.project_id;
$$;
