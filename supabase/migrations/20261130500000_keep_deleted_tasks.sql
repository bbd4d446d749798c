-- Issue 24, item 11: a deleted task can be restored for 30 days (POST /v1/tasks/{id}/restore), with its
-- comments, labels, assignee, attachments and place on the board (docs/decisions/0038).
--
-- A deleted task leaves the live tables exactly as before (the row goes, its comments and attachments go
-- with it by their foreign keys), so every policy, count, list, search, export and the Data API stay as they
-- were: nobody reads or changes a deleted task through them, because it is not there. What it was is kept
-- in a trash the callers cannot reach (schema `private`): the task, its comments and its ready attachments,
-- as JSON rows. Restoring puts them back, as their owner, after the checks a delete makes; after 30 days
-- the hourly housekeeping purges them and queues their files for removal from Storage.

-- The trash: a deleted task, as the row it was (to_jsonb), with its comments. A task whose project is
-- deleted meanwhile keeps its entry, emptied, so that restoring it says why it cannot be (project_deleted).
create table private.deleted_tasks (
  id uuid primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- No foreign key: the entry outlives its project (emptied, above).
  project_id uuid not null,
  task jsonb,
  comments jsonb,
  deleted_by uuid,
  deleted_at timestamptz not null default now(),
  project_deleted_at timestamptz,
  check ((task is null) = (project_deleted_at is not null)),
  check ((comments is null) = (task is null))
);
create index deleted_tasks_project_id_idx on private.deleted_tasks (project_id);
create index deleted_tasks_deleted_at_idx on private.deleted_tasks (deleted_at);
alter table private.deleted_tasks enable row level security;
revoke all on private.deleted_tasks from public, anon, authenticated;

-- A deleted task's ready attachments, by their object's path: their objects stay in Storage while they are
-- here (nobody reads them: the read policy wants a ready attachment), and go when they leave the trash.
create table private.deleted_task_attachments (
  object_path text primary key,
  task_id uuid not null references private.deleted_tasks (id) on delete cascade,
  attachment jsonb not null
);
create index deleted_task_attachments_task_id_idx on private.deleted_task_attachments (task_id);
alter table private.deleted_task_attachments enable row level security;
revoke all on private.deleted_task_attachments from public, anon, authenticated;

-- Whether this transaction is restoring the task `task` (private.restore_task says so, for the triggers
-- below: a restored task keeps its number and completion, and its rows tell the feed nothing of their
-- own). Only restore_task sets the setting, locally; nobody can write a task with an id of their choosing.
create function private.restoring_task(task uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(current_setting('tasklane.restoring_task', true) = task::text, false);
$$;
revoke all on function private.restoring_task(uuid) from public;
grant execute on function private.restoring_task(uuid) to authenticated;

-- Before a task is deleted by the caller (its project and workspace still there: not with either), it
-- goes to the trash with its comments and ready attachments. Named to run after tasks_place_in_project,
-- which refuses the deletion in an archived project. Pending attachments are not kept: they go, as before.
create function private.keep_deleted_task()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.projects p where p.id = old.project_id)
    or not exists (select 1 from public.workspaces w where w.id = old.workspace_id) then
    return old;
  end if;
  insert into private.deleted_tasks (id, workspace_id, project_id, task, comments, deleted_by)
  values (
    old.id, old.workspace_id, old.project_id, to_jsonb(old),
    coalesce(
      (select jsonb_agg(to_jsonb(c) order by c.created_at, c.id) from public.comments c where c.task_id = old.id),
      '[]'::jsonb
    ),
    (select auth.uid())
  )
  on conflict (id) do update set
    task = excluded.task, comments = excluded.comments, deleted_by = excluded.deleted_by,
    deleted_at = excluded.deleted_at, project_deleted_at = null;
  insert into private.deleted_task_attachments (object_path, task_id, attachment)
  select a.object_path, old.id, to_jsonb(a) from public.attachments a
  where a.task_id = old.id and a.status = 'ready';
  return old;
end;
$$;
revoke all on function private.keep_deleted_task() from public;
create trigger tasks_trash_on_delete before delete on public.tasks
  for each row execute function private.keep_deleted_task();

-- An attachment deleted with its task stays in Storage while the trash keeps it; any other still queues its
-- object (20261129100400).
create or replace function private.queue_attachment_object_removal()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from private.deleted_task_attachments d where d.object_path = old.object_path) then
    perform private.queue_storage_removal('attachments', old.object_path);
  end if;
  return null;
end;
$$;

-- An attachment leaving the trash (purged, emptied with its project or workspace) queues its object, unless
-- it left because its task was restored (its attachment is back).
create function private.queue_deleted_attachment_object_removal()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.attachments a where a.object_path = old.object_path) then
    perform private.queue_storage_removal('attachments', old.object_path);
  end if;
  return null;
end;
$$;
revoke all on function private.queue_deleted_attachment_object_removal() from public;
create trigger deleted_task_attachments_queue_object_removal after delete on private.deleted_task_attachments
  for each row execute function private.queue_deleted_attachment_object_removal();

-- The sweep of 20261129100400, which queues objects no attachment names, leaves the trash's alone.
create or replace function private.sweep_attachment_uploads(max_rows integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  expired integer;
  orphans integer;
begin
  delete from public.attachments a
  where a.id in (
    select x.id from public.attachments x
    where x.status = 'pending' and x.created_at < now() - private.pending_upload_window()
    order by x.created_at
    limit max_rows
  );
  get diagnostics expired = row_count;
  insert into private.storage_removals (bucket_id, object_path)
  select 'attachments', o.name from storage.objects o
  where o.bucket_id = 'attachments' and o.created_at < now() - interval '1 hour'
    and not exists (select 1 from public.attachments a where a.object_path = o.name)
    and not exists (select 1 from private.deleted_task_attachments d where d.object_path = o.name)
    and not exists (
      select 1 from private.storage_removals r where r.bucket_id = 'attachments' and r.object_path = o.name
    )
  order by o.created_at
  limit max_rows
  on conflict (bucket_id, object_path) do nothing;
  get diagnostics orphans = row_count;
  return expired + orphans;
end;
$$;

-- A deleted project takes its deleted tasks' content with it, as it takes its live tasks: their entries
-- are emptied (and their files queued), and stay until their 30 days are up to say why they cannot come
-- back.
create function private.empty_deleted_tasks_of_deleted_projects()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.deleted_task_attachments a
    using private.deleted_tasks d, deleted_projects p
    where a.task_id = d.id and d.project_id = p.id;
  update private.deleted_tasks d
    set task = null, comments = null, project_deleted_at = now()
    from deleted_projects p
    where d.project_id = p.id and d.project_deleted_at is null;
  return null;
end;
$$;
revoke all on function private.empty_deleted_tasks_of_deleted_projects() from public;
create trigger projects_empty_deleted_tasks after delete on public.projects
  referencing old table as deleted_projects
  for each statement execute function private.empty_deleted_tasks_of_deleted_projects();

-- A task restored keeps its number and takes no new one, and counts itself again (under the project row's
-- lock, within the limit); otherwise as in 20261122150000.
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
  if tg_op = 'INSERT' and private.restoring_task(new.id) then
    update public.projects p set task_count = p.task_count + 1
      where p.id = new.project_id
      returning * into project;
    if project.task_count > 20000 then
      raise exception 'task limit reached' using errcode = 'P0001', hint = 'limit_reached';
    end if;
  elsif tg_op = 'INSERT' then
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

-- A restored task keeps when it was completed; otherwise as in 20261122150000.
create or replace function private.track_task_completion()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' and private.restoring_task(new.id) then
    return new;
  end if;
  if new.status = 'done' and (tg_op = 'INSERT' or old.status <> 'done') then
    new.completed_at := now();
  elsif new.status <> 'done' then
    new.completed_at := null;
  end if;
  return new;
end;
$$;

-- A restored task and its comments are one event, `task.restored` (private.restore_task appends it): their
-- inserts append no `task.created` or `comment.created`. The triggers of 20261122150200, split so that
-- the insert's can say so.
drop trigger tasks_log_change on public.tasks;
create trigger tasks_log_change after update or delete on public.tasks
  for each row execute function private.log_change('task', 'created', 'deleted');
create trigger tasks_log_creation after insert on public.tasks
  for each row when (not private.restoring_task(new.id))
  execute function private.log_change('task', 'created', 'deleted');
drop trigger comments_log_change on public.comments;
create trigger comments_log_change after insert or update of body, deleted_at on public.comments
  for each row when (not private.restoring_task(new.task_id))
  execute function private.log_change('comment', 'created', 'deleted');

-- Restores a deleted task for the caller, who must be able to delete it (an editor of its workspace, at
-- the aal the workspace requires), while its project is active: the task with its number, comments,
-- labels that still exist, its assignee if still assignable, its ready attachments, at its place in its
-- column (or right after it, if another task took it). Appends `task.restored`. Raises P0001 with the API's
-- code as the hint: not_found (never deleted, purged, not the caller's, or a credential no longer live),
-- task_not_deleted (it is live), mfa_required, forbidden, project_deleted, project_archived, limit_reached.
create function private.restore_task(target uuid)
returns public.tasks
language plpgsql
security definer
set search_path = ''
as $$
declare
  kept private.deleted_tasks;
  live_key text;
  project public.projects;
  kept_status text;
  kept_position text collate "C";
  next_position text collate "C";
  restored public.tasks;
begin
  -- A signed-out session or a revoked token restores nothing, as RLS lets it read nothing (20261129000000).
  if not private.caller_credential_is_live() then
    raise exception 'no such deleted task' using errcode = 'P0001', hint = 'not_found';
  end if;
  select * into kept from private.deleted_tasks d where d.id = target for update;
  if kept.id is null or not private.is_member(kept.workspace_id) then
    select p.key || '-' || t.number into live_key
      from public.tasks t join public.projects p on p.id = t.project_id
      where t.id = target and private.is_member(t.workspace_id);
    if live_key is not null then
      raise exception 'the task is not deleted'
        using errcode = 'P0001', hint = 'task_not_deleted', detail = live_key;
    end if;
    raise exception 'no such deleted task' using errcode = 'P0001', hint = 'not_found';
  end if;
  if (select auth.jwt() ->> 'aal') is distinct from 'aal2'
    and kept.workspace_id in (select private.caller_mfa_workspace_ids()) then
    raise exception 'the workspace requires MFA' using errcode = 'P0001', hint = 'mfa_required';
  end if;
  if not private.can_edit(kept.workspace_id) then
    raise exception 'may not restore tasks'
      using errcode = 'P0001', hint = 'forbidden', detail = private.role_in(kept.workspace_id)::text;
  end if;
  select * into project from public.projects p where p.id = kept.project_id;
  if kept.task is null or project.id is null then
    raise exception 'the task''s project was deleted' using errcode = 'P0001', hint = 'project_deleted';
  end if;
  if project.archived_at is not null then
    raise exception 'the project is archived'
      using errcode = 'P0001', hint = 'project_archived', detail = project.key;
  end if;

  -- Its place, under the column's lock (the one moves and creations take): its own, or right after the
  -- task that took it.
  kept_status := kept.task ->> 'status';
  kept_position := kept.task ->> 'position';
  perform pg_advisory_xact_lock(hashtextextended('task_column:' || kept.project_id::text || ':' || kept_status, 0));
  if exists (
    select 1 from public.tasks t
    where t.project_id = kept.project_id and t.status = kept_status and t.position = kept_position
  ) then
    select min(t.position) into next_position from public.tasks t
      where t.project_id = kept.project_id and t.status = kept_status and t.position > kept_position;
    kept_position := private.order_key_between(kept_position, next_position);
  end if;

  perform set_config('tasklane.restoring_task', target::text, true);
  -- Every column but the generated ones (the checklist's counts), which Postgres computes again.
  insert into public.tasks (id, workspace_id, project_id, number, title, description, status, priority,
    assignee_id, due_date, position, label_ids, created_by, completed_at, version, created_at, updated_at)
  select r.id, r.workspace_id, r.project_id, r.number, r.title, r.description, r.status, r.priority,
    r.assignee_id, r.due_date, r.position, r.label_ids, r.created_by, r.completed_at, r.version, r.created_at,
    r.updated_at
  from jsonb_populate_record(
    null::public.tasks,
    kept.task || jsonb_build_object(
      'position', kept_position,
      'version', (kept.task ->> 'version')::integer + 1,
      'updated_at', now(),
      -- What the deletion's triggers would have done meanwhile: a departed assignee, a deleted label,
      -- a removed account.
      'assignee_id', (
        select m.user_id from public.memberships m
        where m.workspace_id = kept.workspace_id and m.user_id = (kept.task ->> 'assignee_id')::uuid
          and m.role <> 'viewer'
      ),
      'label_ids', (
        select coalesce(jsonb_agg(l.id order by k.ordinality), '[]'::jsonb)
        from jsonb_array_elements_text(kept.task -> 'label_ids') with ordinality k (id, ordinality)
        join public.labels l on l.id = k.id::uuid and l.workspace_id = kept.workspace_id
      ),
      'created_by', (select u.id from auth.users u where u.id = (kept.task ->> 'created_by')::uuid)
    )
  ) r
  returning * into restored;

  insert into public.comments
  select c.* from jsonb_array_elements(kept.comments) k (comment)
  cross join lateral jsonb_populate_record(
    null::public.comments,
    k.comment || jsonb_build_object(
      'author_id', (select u.id from auth.users u where u.id = (k.comment ->> 'author_id')::uuid)
    )
  ) c;

  insert into public.attachments
  select a.* from private.deleted_task_attachments d
  cross join lateral jsonb_populate_record(
    null::public.attachments,
    d.attachment || jsonb_build_object(
      'uploaded_by', (select u.id from auth.users u where u.id = (d.attachment ->> 'uploaded_by')::uuid)
    )
  ) a
  where d.task_id = target;

  delete from private.deleted_tasks d where d.id = target;
  perform set_config('tasklane.restoring_task', '', true);
  perform private.append_event(
    restored.workspace_id, restored.project_id, restored.id, 'task.restored', private.task_json(restored)
  );
  return restored;
end;
$$;
revoke all on function private.restore_task(uuid) from public;
grant execute on function private.restore_task(uuid) to authenticated;

-- After 30 days a deleted task is gone for good: at most `max_rows` entries a run, oldest first (their
-- attachments' objects are queued for removal as they leave). Answers how many it purged.
create function private.purge_deleted_tasks(kept_days integer default 30, max_rows integer default 10000)
returns bigint
language sql
volatile
security definer
set search_path = ''
as $$
  with gone as (
    delete from private.deleted_tasks d
    where d.id in (
      select x.id from private.deleted_tasks x
      where x.deleted_at < now() - make_interval(days => kept_days)
      order by x.deleted_at
      limit max_rows
    )
    returning 1
  )
  select count(*) from gone;
$$;
revoke all on function private.purge_deleted_tasks(integer, integer) from public;

-- Housekeeping (20261122150300) purges the trash too, hourly.
create or replace function private.delete_expired_rows()
returns table (kind text, deleted bigint)
language sql
volatile
security definer
set search_path = ''
as $$
  select 'events', private.delete_expired_events(30)
  union all
  select 'idempotency_keys', private.delete_expired_idempotency_keys(10000)::bigint
  union all
  select 'rate_limit_counters', private.delete_stale_rate_limit_counters(3600)::bigint
  union all
  select 'deleted_tasks', private.purge_deleted_tasks(30, 10000);
$$;

-- A restored task's broadcast names every field, as a created one's does (20261129200000).
create or replace function private.event_broadcast_payload(event public.events)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'seq', event.seq,
    'cursor', private.feed_cursor(event.workspace_id, event.seq),
    'previous_cursor', private.feed_cursor(event.workspace_id, event.seq - 1),
    'type', event.type,
    'project_id', event.project_id,
    'task_id', event.task_id,
    'resource_id', case when event.type like 'member.%' then event.data -> 'user_id' else event.data -> 'id' end,
    'version', (event.data ->> 'version')::integer,
    'actor_id', event.actor_id,
    'changed', (
      select coalesce(jsonb_agg(name order by name), '[]'::jsonb)
      from jsonb_object_keys(
        case
          when event.previous_attributes is not null then event.previous_attributes
          when event.type ~ '\.(created|added|restored)$' then event.data
          else '{}'::jsonb
        end
      ) as name
      where name <> all (
        array['object', 'id', 'user_id', 'workspace_id', 'project_id', 'task_id', 'version', 'created_at', 'updated_at']
      )
    )
  );
$$;
