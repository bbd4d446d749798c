-- The export (GET /v1/workspaces/{slug}/export) builds its document in SQL with the same json builders
-- the event log uses, so that it holds exactly the shapes the API answers. It selects them as the
-- caller, under RLS, so the caller may execute them. The builders that read another table (a task's
-- project for its key, a member's profile for their name) run as the caller too, not as their owner:
-- called with a made-up row they then tell nothing the caller could not read anyway. The triggers that
-- call them are security definer themselves, so event data is built as before.
alter function private.task_json(public.tasks) security invoker;
alter function private.member_json(public.memberships) security invoker;

grant execute on function
  private.iso_timestamp(timestamptz),
  private.task_json(public.tasks),
  private.project_json(public.projects),
  private.label_json(public.labels),
  private.member_json(public.memberships)
to authenticated;
