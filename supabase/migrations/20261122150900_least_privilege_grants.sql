-- Supabase's default privileges give anon and authenticated every privilege on each new table in
-- public (and PostgREST exposes them). RLS keeps other people's rows out of reach, but only grants keep
-- columns (created_by, number, token_hash, …) and TRUNCATE out of reach. This resets every table whose
-- migration did not revoke first to exactly the grants it meant. tests/db/grants.test.ts keeps it so.
revoke all on table public.workspaces, public.memberships, public.invitations, public.projects, public.labels,
  public.tasks, public.events
  from anon, authenticated;

grant select, delete on public.workspaces, public.memberships to authenticated;
grant update (name, slug, require_mfa) on public.workspaces to authenticated;
grant update (role) on public.memberships to authenticated;

grant select on public.invitations to authenticated;
grant insert (workspace_id, email, role, token_hash, invited_by) on public.invitations to authenticated;
grant update (status) on public.invitations to authenticated;

grant select, delete on public.projects to authenticated;
grant insert (workspace_id, key, name, description, created_by) on public.projects to authenticated;
grant update (key, name, description, archived_at) on public.projects to authenticated;

grant select, delete on public.labels to authenticated;
grant insert (workspace_id, name, color, created_by) on public.labels to authenticated;
grant update (name, color) on public.labels to authenticated;

grant select, delete on public.tasks to authenticated;
grant insert (project_id, title, description, status, priority, assignee_id, due_date, position, label_ids, created_by)
  on public.tasks to authenticated;
grant update (title, description, status, priority, assignee_id, due_date, position, label_ids)
  on public.tasks to authenticated;

grant select on public.events to authenticated;
