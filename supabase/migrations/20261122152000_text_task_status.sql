-- A task's status was an enum. Comparing enums (`enum_eq`) is not LEAKPROOF, so under RLS Postgres may not
-- use `status = …` as an index condition, nor the board's keyset comparison: a column's list walked the
-- project's index from its first column and filtered (2,000 rows read for a page of 50 `todo` tasks, 8,000
-- for `done`), and so did a move's neighbour read. As `text` with a check constraint (`texteq` is
-- leakproof), the status is an index condition like the project is (docs/decisions/0012).
drop trigger tasks_track_completion on public.tasks;
alter table public.tasks alter column status drop default;
alter table public.tasks alter column status type text using status::text;
alter table public.tasks alter column status set default 'todo';
alter table public.tasks add constraint tasks_status_check
  check (status in ('backlog', 'todo', 'in_progress', 'in_review', 'done', 'canceled'));
drop type public.task_status;
create trigger tasks_track_completion before insert or update of status on public.tasks
  for each row execute function private.track_task_completion();

-- Board order runs through the columns left to right, as the enum did. An immutable SQL function of one
-- CASE, so Postgres inlines it (into leakproof text comparisons) in queries and in the index below alike.
-- Without `set search_path` (which would stop the inlining), so its operator is named with its schema:
-- no search_path can make the index compute another rank.
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
revoke execute on function private.task_status_rank(text) from public, anon;
grant execute on function private.task_status_rank(text) to authenticated;

-- The board's order over all its columns (`sort=position` without a status filter), paged by keyset.
create index tasks_project_board_order_idx on public.tasks (project_id, private.task_status_rank(status), position);
