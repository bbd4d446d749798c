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
create policy "Members can read their workspaces' events" on public.events
  for select to authenticated using ((select private.is_member(workspace_id)));
grant select on public.events to authenticated;

-- Timestamps in events as the API writes them: ISO 8601 in UTC with milliseconds.
create or replace function private.iso_timestamp(value timestamptz)
returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(value at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
$$;

-- Appends one event for the current caller (request.jwt.claims: `sub`, and `api_token_id` for tokens).
create or replace function private.append_event(
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
-- Only the triggers append (they run as the owner). Functions are executable by everyone until revoked
-- one by one: the schema's default privileges cannot take back that global default.
revoke all on function private.append_event(uuid, uuid, uuid, text, jsonb, jsonb) from public;

-- The fields of `after` whose values differ in `before`, with their values in `before`: an event's
-- `previous_attributes`. Bookkeeping fields (`version`, `updated_at`) are left out.
create or replace function private.previous_attributes(before jsonb, after jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(b.key, b.value), '{}'::jsonb)
  from jsonb_each(before) b
  where b.key not in ('version', 'updated_at') and b.value is distinct from after -> b.key;
$$;

-- A task as the API answers it (GET /v1/tasks/{id}), for event data.
create or replace function private.task_json(task public.tasks)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'task',
    'id', task.id,
    'project_id', task.project_id,
    'key', p.key || '-' || task.number,
    'number', task.number,
    'title', task.title,
    'description', task.description,
    'status', task.status,
    'priority', task.priority,
    'assignee_id', task.assignee_id,
    'due_date', task.due_date,
    'position', task.position,
    'label_ids', to_jsonb(task.label_ids),
    'created_by', task.created_by,
    'completed_at', private.iso_timestamp(task.completed_at),
    'version', task.version,
    'created_at', private.iso_timestamp(task.created_at),
    'updated_at', private.iso_timestamp(task.updated_at)
  )
  from public.projects p where p.id = task.project_id;
$$;

-- task.created, task.updated, task.moved (only status or position changed), task.deleted. A task that
-- goes because its project does tells nothing of its own: the project's event says it.
create or replace function private.log_task_change()
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
create trigger tasks_log_change after insert or update or delete on public.tasks
  for each row execute function private.log_task_change();

-- project.created, project.updated, project.archived, project.unarchived, project.deleted.
create or replace function private.project_json(project public.projects)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'project',
    'id', project.id,
    'workspace_id', project.workspace_id,
    'key', project.key,
    'name', project.name,
    'description', project.description,
    'archived', project.archived_at is not null,
    'archived_at', private.iso_timestamp(project.archived_at),
    'created_by', project.created_by,
    'version', project.version,
    'created_at', private.iso_timestamp(project.created_at),
    'updated_at', private.iso_timestamp(project.updated_at)
  );
$$;

create or replace function private.log_project_change()
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
-- Only the project's own fields: taking a task number is not a change to the project.
create trigger projects_log_change after insert or delete or update of key, name, description, archived_at
  on public.projects for each row execute function private.log_project_change();

-- label.created, label.updated, label.deleted.
create or replace function private.label_json(label public.labels)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'label',
    'id', label.id,
    'workspace_id', label.workspace_id,
    'name', label.name,
    'color', label.color,
    'created_by', label.created_by,
    'version', label.version,
    'created_at', private.iso_timestamp(label.created_at),
    'updated_at', private.iso_timestamp(label.updated_at)
  );
$$;

create or replace function private.log_label_change()
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
create trigger labels_log_change after insert or update or delete on public.labels
  for each row execute function private.log_label_change();

-- member.added, member.updated (role), member.removed: who is in the workspace, never e-mail addresses
-- (the feed is read by every member; the members list is where addresses are shown).
create or replace function private.member_json(membership public.memberships)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'member',
    'user_id', membership.user_id,
    'workspace_id', membership.workspace_id,
    'role', membership.role,
    'display_name', (select p.display_name from public.profiles p where p.user_id = membership.user_id),
    'version', membership.version,
    'created_at', private.iso_timestamp(membership.created_at),
    'updated_at', private.iso_timestamp(membership.updated_at)
  );
$$;

create or replace function private.log_membership_change()
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
create trigger memberships_log_change after insert or update of role or delete on public.memberships
  for each row execute function private.log_membership_change();

-- SPEC §7: the feed keeps 30 days. Run daily (pg_cron on hosted Supabase; the stand-in's scheduler
-- locally); answers how many events it removed.
create or replace function private.delete_expired_events(kept_days integer default 30)
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
