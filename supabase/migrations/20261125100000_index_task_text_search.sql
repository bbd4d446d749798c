-- Issue 11: `q` on the task list (`title ilike '%q%' or description ilike '%q%'`) read every task of the
-- project and matched each description character by character; a signed-up user could keep a core busy
-- for as long as they liked. Trigram indexes let the match start from the tasks that hold every trigram
-- of `q` (the statement timeout bounds what is left, and the API caps `q` and concurrent searches).
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
-- nothing but ids, which the list then reads as the caller, under RLS as before.
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

revoke execute on function private.task_ids_matching(uuid, text) from public, anon;
grant execute on function private.task_ids_matching(uuid, text) to authenticated;
