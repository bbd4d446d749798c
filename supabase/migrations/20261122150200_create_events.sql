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

-- task.created, task.updated, task.moved (only status or position changed), task.deleted. A task that
-- goes because its project does tells nothing of its own: the project's event says it.
create function private.log_task_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  before jsonb;
  after jsonb;
  changed jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.append_event(new.workspace_id, new.project_id, new.id, 'task.created', private.task_json(new));
  elsif tg_op = 'UPDATE' then
    before := private.task_json(old);
    after := private.task_json(new);
    changed := private.previous_attributes(before, after);
    if changed = '{}'::jsonb then
      return new;
    end if;
    perform private.append_event(
      new.workspace_id, new.project_id, new.id,
      case when changed - 'status' - 'position' - 'completed_at' = '{}'::jsonb then 'task.moved' else 'task.updated' end,
      after, changed
    );
  elsif exists (select 1 from public.projects p where p.id = old.project_id) then
    perform private.append_event(old.workspace_id, old.project_id, old.id, 'task.deleted', private.task_json(old));
  end if;
  return coalesce(new, old);
end;
$$;
revoke all on function private.log_task_change() from public;
create trigger tasks_log_change after insert or update or delete on public.tasks
  for each row execute function private.log_task_change();

-- project.created, project.updated, project.archived, project.unarchived, project.deleted.
create function private.log_project_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.append_event(new.workspace_id, new.id, null, 'project.created', private.project_json(new));
  elsif tg_op = 'UPDATE' then
    changed := private.previous_attributes(private.project_json(old), private.project_json(new));
    if changed = '{}'::jsonb then
      return new;
    end if;
    perform private.append_event(
      new.workspace_id, new.id, null,
      case
        when changed ? 'archived' and new.archived_at is not null then 'project.archived'
        when changed ? 'archived' then 'project.unarchived'
        else 'project.updated'
      end,
      private.project_json(new), changed
    );
  elsif exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    perform private.append_event(old.workspace_id, old.id, null, 'project.deleted', private.project_json(old));
  end if;
  return coalesce(new, old);
end;
$$;
revoke all on function private.log_project_change() from public;
-- Only the project's own fields: taking a task number is not a change to the project.
create trigger projects_log_change after insert or delete or update of key, name, description, archived_at
  on public.projects for each row execute function private.log_project_change();

-- label.created, label.updated, label.deleted.
create function private.log_label_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.append_event(new.workspace_id, null, null, 'label.created', private.label_json(new));
  elsif tg_op = 'UPDATE' then
    -- An update that writes the same values changes nothing anyone could see: no event.
    changed := private.previous_attributes(private.label_json(old), private.label_json(new));
    if changed = '{}'::jsonb then
      return new;
    end if;
    perform private.append_event(new.workspace_id, null, null, 'label.updated', private.label_json(new), changed);
  elsif exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    perform private.append_event(old.workspace_id, null, null, 'label.deleted', private.label_json(old));
  end if;
  return coalesce(new, old);
end;
$$;
revoke all on function private.log_label_change() from public;
create trigger labels_log_change after insert or update or delete on public.labels
  for each row execute function private.log_label_change();

-- member.added, member.updated (role), member.removed.
create function private.log_membership_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.append_event(new.workspace_id, null, null, 'member.added', private.member_json(new));
  elsif tg_op = 'UPDATE' then
    changed := private.previous_attributes(private.member_json(old), private.member_json(new));
    if changed = '{}'::jsonb then
      return new;
    end if;
    perform private.append_event(new.workspace_id, null, null, 'member.updated', private.member_json(new), changed);
  elsif exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    perform private.append_event(old.workspace_id, null, null, 'member.removed', private.member_json(old));
  end if;
  return coalesce(new, old);
end;
$$;
revoke all on function private.log_membership_change() from public;
create trigger memberships_log_change after insert or update of role or delete on public.memberships
  for each row execute function private.log_membership_change();

-- comment.created, comment.updated (the body), comment.deleted. A deleted comment's body leaves the log
-- too: its earlier events are redacted, since no reader of the feed may see it any more (SPEC §7). A
-- comment that goes with its task tells nothing of its own: the task's event says it.
create function private.log_comment_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid := (select t.project_id from public.tasks t where t.id = new.task_id);
  changed jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.append_event(
      new.workspace_id, project, new.task_id, 'comment.created', private.comment_json(new)
    );
  elsif new.deleted_at is not null and old.deleted_at is null then
    update public.events e
      set data = jsonb_set(e.data, '{body}', 'null'::jsonb),
        previous_attributes = e.previous_attributes - 'body'
      where e.task_id = new.task_id and e.type in ('comment.created', 'comment.updated')
        and e.data ->> 'id' = new.id::text;
    perform private.append_event(
      new.workspace_id, project, new.task_id, 'comment.deleted', private.comment_json(new)
    );
  else
    changed := private.previous_attributes(private.comment_json(old), private.comment_json(new));
    if changed <> '{}'::jsonb then
      perform private.append_event(
        new.workspace_id, project, new.task_id, 'comment.updated', private.comment_json(new), changed
      );
    end if;
  end if;
  return new;
end;
$$;
revoke all on function private.log_comment_change() from public;
create trigger comments_log_change after insert or update of body, deleted_at on public.comments
  for each row execute function private.log_comment_change();

-- Deleting a task or a project takes its content out of the event log too (issue 11, item 10), as
-- soft-deleting a comment takes the comment's body out (log_comment_change above). The log keeps
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
