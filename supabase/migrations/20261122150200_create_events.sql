-- The workspace's event log (SPEC §3, §7): appended by triggers in the same transaction as each change,
-- it is a task's activity, the resumable change feed and, later, the webhooks' outbox.
--
-- The feed pages by `seq`, a per-workspace number given in commit order: appending takes the
-- workspace's row in private.event_sequences and holds its lock until commit, so a transaction that
-- commits later always gets a higher number, and a reader that has seen `seq = n` can never later find a
-- committed event below n (docs/decisions/0010). Plain sequence values commit out of order.

create table private.event_sequences (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  last_seq bigint not null
);

create table public.events (
  id bigint generated always as identity primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  seq bigint not null,
  -- No foreign keys: the log outlives the projects and tasks it tells of.
  project_id uuid,
  task_id uuid,
  -- Who acted: the user, and the API token when they acted through one; null for the system.
  actor_id uuid,
  actor_api_token_id uuid,
  type text not null check (type ~ '^[a-z_]+\.[a-z_]+$'),
  data jsonb not null,
  previous_attributes jsonb,
  created_at timestamptz not null default now(),
  unique (workspace_id, seq)
);
-- A task's activity is read in feed order too: by seq, which is commit order (ids are not).
create index events_task_id_seq_idx on public.events (task_id, seq) where task_id is not null;
create index events_created_at_idx on public.events (created_at);

alter table public.events enable row level security;
-- Compares the row's workspace with the caller's workspaces, computed once per statement (see
-- private.caller_workspace_ids).
create policy "Members can read their workspaces' events" on public.events
  for select to authenticated using (workspace_id in (select private.caller_workspace_ids()));
create policy "Workspaces that require MFA admit aal2 only" on public.events
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
revoke all on table public.events from anon, authenticated;
grant select on public.events to authenticated;

-- Appends one event for the current caller (request.jwt.claims: `sub`, and `api_token_id` for tokens).
create function private.append_event(
  workspace uuid,
  project uuid,
  task uuid,
  event_type text,
  event_data jsonb,
  previous jsonb default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb, '{}'::jsonb);
  next_seq bigint;
begin
  insert into private.event_sequences as s (workspace_id, last_seq) values (workspace, 1)
    on conflict (workspace_id) do update set last_seq = s.last_seq + 1
    returning s.last_seq into next_seq;
  insert into public.events
    (workspace_id, seq, project_id, task_id, actor_id, actor_api_token_id, type, data, previous_attributes)
  values (
    workspace, next_seq, project, task, (claims ->> 'sub')::uuid, (claims ->> 'api_token_id')::uuid,
    event_type, event_data, previous
  );
end;
$$;
-- Only the triggers append (they run as the owner).
revoke all on function private.append_event(uuid, uuid, uuid, text, jsonb, jsonb) from public;

-- The fields of `after` whose values differ in `before`, with their values in `before`: an event's
-- `previous_attributes`. Bookkeeping fields (`version`, `updated_at`) are left out.
create function private.previous_attributes(before jsonb, after jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(b.key, b.value), '{}'::jsonb)
  from jsonb_each(before) b
  where b.key not in ('version', 'updated_at') and b.value is distinct from after -> b.key;
$$;
revoke all on function private.previous_attributes(jsonb, jsonb) from public;

-- Event data is each resource as the API answers it, built by the same JSON builders the API and the
-- export use (private.task_json, project_json, label_json, member_json, comment_json, with their tables),
-- so that the feed holds exactly the shapes the API answers. The builders run as the caller; the
-- triggers below are security definer, so event data is built as their owner.

-- One trigger function appends the events of tasks, projects, labels, memberships and comments. Its
-- trigger's arguments name the resource in the event types, and the verbs of an insert and of a delete:
-- `task`, `created`, `deleted` make task.created and task.deleted (a member is `added` and `removed`).
-- An update appends `<resource>.updated` with `previous_attributes`, the fields that changed, unless it
-- changed nothing anyone could see (no event), or it is one of the updates with names of their own:
--   task.moved                          only the status or the position changed (completed_at follows the
--                                       status);
--   project.archived, project.unarchived  `archived` changed;
--   comment.deleted                     the comment was deleted (softly), with no previous_attributes.
-- A row that goes with its parent tells nothing of its own: the parent's event says it (a task that goes
-- with its project; a project, label or membership with its workspace).
create function private.log_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  resource text := tg_argv[0];
  workspace uuid := coalesce(new.workspace_id, old.workspace_id);
  project uuid;
  task uuid;
  before jsonb;
  after jsonb;
  changed jsonb;
  kind text;
begin
  -- Where the row belongs, and the row before and after as the API answers it, by its table's builder.
  -- PL/pgSQL plans a statement when it first runs it, so each table's trigger plans its own branch only.
  if tg_table_name = 'tasks' then
    project := coalesce(new.project_id, old.project_id);
    task := coalesce(new.id, old.id);
    if tg_op <> 'INSERT' then before := private.task_json(old); end if;
    if tg_op <> 'DELETE' then after := private.task_json(new); end if;
  elsif tg_table_name = 'projects' then
    project := coalesce(new.id, old.id);
    if tg_op <> 'INSERT' then before := private.project_json(old); end if;
    if tg_op <> 'DELETE' then after := private.project_json(new); end if;
  elsif tg_table_name = 'labels' then
    if tg_op <> 'INSERT' then before := private.label_json(old); end if;
    if tg_op <> 'DELETE' then after := private.label_json(new); end if;
  elsif tg_table_name = 'memberships' then
    if tg_op <> 'INSERT' then before := private.member_json(old); end if;
    if tg_op <> 'DELETE' then after := private.member_json(new); end if;
  elsif tg_table_name = 'comments' then
    project := (select t.project_id from public.tasks t where t.id = new.task_id);
    task := new.task_id;
    if tg_op <> 'INSERT' then before := private.comment_json(old); end if;
    after := private.comment_json(new);
  end if;

  if tg_op = 'INSERT' then
    perform private.append_event(workspace, project, task, resource || '.' || tg_argv[1], after);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.workspaces w where w.id = workspace)
      and (tg_table_name <> 'tasks' or exists (select 1 from public.projects p where p.id = project)) then
      perform private.append_event(workspace, project, task, resource || '.' || tg_argv[2], before);
    end if;
  else
    changed := private.previous_attributes(before, after);
    if changed = '{}'::jsonb then
      return new;
    end if;
    kind := case
      when resource = 'task' and changed - 'status' - 'position' - 'completed_at' = '{}'::jsonb then 'moved'
      when resource = 'project' and changed ? 'archived' then
        case when (after ->> 'archived')::boolean then 'archived' else 'unarchived' end
      when resource = 'comment' and changed ? 'deleted' then 'deleted'
      else 'updated'
    end;
    perform private.append_event(
      workspace, project, task, resource || '.' || kind, after, case when kind <> 'deleted' then changed end
    );
  end if;
  return coalesce(new, old);
end;
$$;
revoke all on function private.log_change() from public;

create trigger tasks_log_change after insert or update or delete on public.tasks
  for each row execute function private.log_change('task', 'created', 'deleted');
-- Only the project's own fields: taking a task number is not a change to the project.
create trigger projects_log_change after insert or delete or update of key, name, description, archived_at
  on public.projects for each row execute function private.log_change('project', 'created', 'deleted');
create trigger labels_log_change after insert or update or delete on public.labels
  for each row execute function private.log_change('label', 'created', 'deleted');
create trigger memberships_log_change after insert or update of role or delete on public.memberships
  for each row execute function private.log_change('member', 'added', 'removed');
-- Comments are deleted softly; one goes for good only with its task, whose event says it.
create trigger comments_log_change after insert or update of body, deleted_at on public.comments
  for each row execute function private.log_change('comment', 'created', 'deleted');

-- A deleted comment's body leaves the log too: its earlier events are redacted, since no reader of the
-- feed may see it any more (SPEC §7). (Triggers fire in the order of their names: comment.deleted is
-- appended first, and it is neither of the types redacted.)
create function private.redact_events_of_deleted_comment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.events e
    set data = jsonb_set(e.data, '{body}', 'null'::jsonb),
      previous_attributes = e.previous_attributes - 'body'
    where e.task_id = new.task_id and e.type in ('comment.created', 'comment.updated')
      and e.data ->> 'id' = new.id::text;
  return null;
end;
$$;
revoke all on function private.redact_events_of_deleted_comment() from public;

create trigger comments_redact_events after update of deleted_at on public.comments
  for each row when (old.deleted_at is null and new.deleted_at is not null)
  execute function private.redact_events_of_deleted_comment();

-- Deleting a task or a project takes its content out of the event log too (issue 11, item 10), as
-- soft-deleting a comment takes the comment's body out (redact_events_of_deleted_comment above). The log keeps
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

-- SPEC §7: the feed keeps 30 days. Run daily (pg_cron on hosted Supabase; the stand-in's scheduler
-- locally); answers how many events it removed.
create function private.delete_expired_events(kept_days integer default 30)
returns bigint
language sql
security definer
set search_path = ''
as $$
  with gone as (
    delete from public.events e where e.created_at < now() - make_interval(days => kept_days) returning 1
  )
  select count(*) from gone;
$$;
revoke all on function private.delete_expired_events(integer) from public;
