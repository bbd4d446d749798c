-- Issue 24, item 12: a task's description may hold a GitHub-style checklist ("- [ ] write", "- [x] ship");
-- the API answers how many of its items are ticked and how many there are, `checklist: {done, total}`.
-- Counted once per write, in generated columns, so that a page of tasks reads two integers per row
-- and not its descriptions. An item is a list line ("-", "*", "+" or "1." / "1)") whose text begins with
-- "[ ]", "[x]" or "[X]", as remark-gfm reads them; lines inside a fenced code block count too (rare,
-- and cheaper than parsing the markdown here).
alter table public.tasks
  add column checklist_total integer not null generated always as (
    pg_catalog.regexp_count(description, '^[ \t]*([-*+]|[0-9]{1,9}[.)])[ \t]+\[[ xX]\]([ \t]|$)', 1, 'n')
  ) stored,
  add column checklist_done integer not null generated always as (
    pg_catalog.regexp_count(description, '^[ \t]*([-*+]|[0-9]{1,9}[.)])[ \t]+\[[xX]\]([ \t]|$)', 1, 'n')
  ) stored;

-- As before (20261122150000_create_tasks.sql), with the checklist's counts.
create or replace function private.task_json(task public.tasks, project_key text)
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
    'checklist', pg_catalog.jsonb_build_object('done', task.checklist_done, 'total', task.checklist_total),
    'created_by', task.created_by,
    'completed_at', private.iso_timestamp(task.completed_at),
    'version', task.version,
    'created_at', private.iso_timestamp(task.created_at),
    'updated_at', private.iso_timestamp(task.updated_at)
  )
$$;
