-- Issue 26: people get told. Mentions (`<@USER_ID>` in a comment or a task's description), watchers of a
-- task, and each person's notifications, written from the event log by set-based SQL in the transaction of
-- the change they tell of (docs/decisions/0047-notifications-from-the-event-log.md, docs/notifications.md).
--
-- Who gets what, for one event (at most one notification per person per event, the first that applies):
--   mentioned        a member newly mentioned in a comment (created or edited) or a task's description;
--   assigned         the new assignee of a task (created assigned, or assigned to someone else);
--   commented        a watcher of the task, on a new comment;
--   status_changed   a watcher of the task, when its status changed.
-- And outside the event log: invitation_accepted (to whoever sent the invitation), due_soon and overdue
-- (to the assignee, by private.notify_due_tasks(), which the notification mail runs every minute).
-- Nobody is told of their own action; a person whose setting for the type is `off` gets nothing; a uuid
-- that is not a member of the workspace gets nothing and is never added as a watcher. The same person's
-- changes to one task within 10 minutes fold into the recipient's unread notification of that type
-- (`change_count`), so a flood gives one notification per person per task.

-- Mentions ------------------------------------------------------------------------------------------

-- The syntax of a mention in markdown text: `<@` the user's uuid `>` (docs/notifications.md).
create function private.mentioned_user_ids(body text)
returns uuid[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct lower(m[1])::uuid), '{}')
  from pg_catalog.regexp_matches(
    coalesce(body, ''),
    '<@([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})>', 'g'
  ) as m;
$$;

-- How many mentions a text holds, repeats counted: MENTIONS_PER_TEXT in limits.ts caps it.
create function private.mention_count(body text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select count(*)::integer
  from pg_catalog.regexp_matches(
    coalesce(body, ''),
    '<@[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}>', 'g'
  );
$$;
-- Check constraints call them as whoever writes the row.
revoke all on function private.mentioned_user_ids(text), private.mention_count(text) from public;
grant execute on function private.mentioned_user_ids(text), private.mention_count(text) to authenticated;

alter table public.comments add constraint comments_mentions_limit check (private.mention_count(body) <= 50);
alter table public.tasks add constraint tasks_mentions_limit check (private.mention_count(description) <= 50);

-- A person's time zone (IANA name), for due dates and the daily digest; null is UTC.
alter table public.profiles add column time_zone text
  check (time_zone is null or char_length(time_zone) between 1 and 64);

create function private.check_time_zone()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.time_zone is not null
    and not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = new.time_zone) then
    raise exception 'unknown time zone' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  return new;
end;
$$;
revoke all on function private.check_time_zone() from public;
create trigger profiles_check_time_zone before insert or update of time_zone on public.profiles
  for each row execute function private.check_time_zone();
-- People set their own (PATCH /v1/me; the web app sets the browser's when none is set).
grant update (time_zone) on table public.profiles to authenticated;

-- Watchers -------------------------------------------------------------------------------------------

create table public.task_watchers (
  task_id uuid not null references public.tasks (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- Copied from the task by the trigger below: RLS reads it without a join.
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (task_id, user_id)
);
create index task_watchers_user_id_idx on public.task_watchers (user_id, workspace_id);
create index task_watchers_workspace_id_idx on public.task_watchers (workspace_id);

create function private.take_task_workspace()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := (select t.workspace_id from public.tasks t where t.id = new.task_id);
  if new.workspace_id is null then
    raise exception 'no such task' using errcode = 'P0001', hint = 'not_found';
  end if;
  return new;
end;
$$;
revoke all on function private.take_task_workspace() from public;
create trigger task_watchers_take_workspace before insert on public.task_watchers
  for each row execute function private.take_task_workspace();

-- Anyone who can see the task sees who watches it, and watches or stops watching it themselves.
alter table public.task_watchers enable row level security;
create policy "Members see who watches their workspaces' tasks" on public.task_watchers
  for select to authenticated using (workspace_id in (select private.caller_workspace_ids()));
create policy "Members watch tasks themselves" on public.task_watchers
  for insert to authenticated
  with check (user_id = (select auth.uid()) and workspace_id in (select private.caller_workspace_ids()));
create policy "Members stop watching themselves" on public.task_watchers
  for delete to authenticated
  using (user_id = (select auth.uid()) and workspace_id in (select private.caller_workspace_ids()));
create policy "Workspaces that require MFA admit aal2 only" on public.task_watchers
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
create policy "Only live sessions and tokens" on public.task_watchers
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
revoke all on table public.task_watchers from anon, authenticated;
grant select, delete on public.task_watchers to authenticated;
grant insert (task_id, user_id) on public.task_watchers to authenticated;

-- Settings -------------------------------------------------------------------------------------------

create function private.notification_types()
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array['assigned', 'mentioned', 'commented', 'status_changed', 'due_soon', 'overdue', 'invitation_accepted'];
$$;

-- How a person hears of a type when they chose nothing: at once by mail for what is addressed to them
-- by name (assigned, mentioned), in the daily digest for due dates, in the inbox only for the rest.
create function private.default_notification_delivery(notification_type text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case notification_type
    when 'assigned' then 'email_now'
    when 'mentioned' then 'email_now'
    when 'due_soon' then 'email_digest'
    when 'overdue' then 'email_digest'
    else 'inbox'
  end;
$$;
revoke all on function private.notification_types(), private.default_notification_delivery(text) from public;
grant execute on function private.notification_types(), private.default_notification_delivery(text) to authenticated;

create table public.notification_settings (
  user_id uuid not null references auth.users (id) on delete cascade,
  type text not null check (type = any (private.notification_types())),
  -- inbox: the inbox only; email_now: the inbox and a mail within minutes; email_digest: the inbox and the
  -- next daily digest; off: nothing.
  delivery text not null check (delivery in ('inbox', 'email_now', 'email_digest', 'off')),
  updated_at timestamptz not null default now(),
  primary key (user_id, type)
);

alter table public.notification_settings enable row level security;
create policy "People read their own notification settings" on public.notification_settings
  for select to authenticated using (user_id = (select auth.uid()));
create policy "People write their own notification settings" on public.notification_settings
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "People change their own notification settings" on public.notification_settings
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "Only live sessions and tokens" on public.notification_settings
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
revoke all on table public.notification_settings from anon, authenticated;
grant select on public.notification_settings to authenticated;
grant insert (user_id, type, delivery), update (delivery, updated_at) on public.notification_settings to authenticated;

-- Notifications --------------------------------------------------------------------------------------

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- Null for invitation_accepted. A task deleted takes its notifications with it: nothing left to open.
  task_id uuid references public.tasks (id) on delete cascade,
  type text not null check (type = any (private.notification_types())),
  -- Who acted; null for the system (due dates).
  actor_id uuid references auth.users (id) on delete set null,
  comment_id uuid references public.comments (id) on delete set null,
  -- How many of the actor's changes this one stands for (folded within 10 minutes).
  change_count integer not null default 1 check (change_count >= 1),
  -- The due date a due_soon or overdue notification tells of: one of each per task and date.
  due_date date,
  -- What the person chose for the type when it was written: mail at once, in the digest, or none (null).
  email_delivery text check (email_delivery in ('now', 'digest')),
  emailed_at timestamptz,
  read_at timestamptz,
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((task_id is null) = (type = 'invitation_accepted'))
);
-- The inbox: a person's newest first.
create index notifications_user_updated_idx on public.notifications (user_id, updated_at desc, id desc);
-- The badge: a person's unread, not archived.
create index notifications_user_unread_idx on public.notifications (user_id)
  where read_at is null and archived_at is null;
create unique index notifications_one_per_due_date_idx on public.notifications (user_id, task_id, type, due_date)
  where due_date is not null;
create index notifications_workspace_id_idx on public.notifications (workspace_id, user_id);
create index notifications_unmailed_idx on public.notifications (user_id, created_at)
  where email_delivery is not null and emailed_at is null;
create index notifications_comment_id_idx on public.notifications (comment_id) where comment_id is not null;
-- A task's notifications: deleted with it, and folding finds the recipient's among them.
create index notifications_task_id_idx on public.notifications (task_id, user_id);
create index notifications_actor_id_idx on public.notifications (actor_id);

-- Each person reads and marks only their own, and only while a member of the notification's workspace.
alter table public.notifications enable row level security;
create policy "People read their own notifications" on public.notifications
  for select to authenticated
  using (user_id = (select auth.uid()) and workspace_id in (select private.caller_workspace_ids()));
create policy "People mark their own notifications" on public.notifications
  for update to authenticated
  using (user_id = (select auth.uid()) and workspace_id in (select private.caller_workspace_ids()))
  with check (user_id = (select auth.uid()) and workspace_id in (select private.caller_workspace_ids()));
create policy "Workspaces that require MFA admit aal2 only" on public.notifications
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
create policy "Only live sessions and tokens" on public.notifications
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
revoke all on table public.notifications from anon, authenticated;
grant select on public.notifications to authenticated;
grant update (read_at, archived_at) on public.notifications to authenticated;

-- Writing them ---------------------------------------------------------------------------------------

-- Writes `candidates` (recipient, type, rank: the lower wins when one person qualifies twice) for one
-- change of `task` by `actor`: drops the actor, non-members and those whose setting is off, folds into the
-- recipient's unread notification of the same actor, task and type from the last 10 minutes, and writes
-- the rest. One statement, whatever the number of recipients.
create function private.write_notifications(
  workspace uuid,
  task uuid,
  actor uuid,
  comment uuid,
  candidates jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  with recipients as (
    select distinct on (c.user_id) c.user_id, c.type,
      case coalesce(s.delivery, private.default_notification_delivery(c.type))
        when 'email_now' then 'now' when 'email_digest' then 'digest' end as email_delivery
    from jsonb_to_recordset(candidates) as c (user_id uuid, type text, rank integer)
    join public.memberships m on m.workspace_id = workspace and m.user_id = c.user_id
    left join public.notification_settings s on s.user_id = c.user_id and s.type = c.type
    where c.user_id is distinct from actor
      and coalesce(s.delivery, private.default_notification_delivery(c.type)) <> 'off'
    order by c.user_id, c.rank
  ),
  folded as (
    update public.notifications n
      -- Mailed already, it is mailed again with the change it now holds too (batched from now on), as the
      -- person now wants it: a type they turned to the inbox since is not mailed again.
      set change_count = n.change_count + 1, updated_at = now(), comment_id = coalesce(comment, n.comment_id),
        email_delivery = r.email_delivery, emailed_at = null
      from recipients r
      where n.user_id = r.user_id and n.task_id = task and n.type = r.type and n.actor_id = actor
        and n.read_at is null and n.archived_at is null and n.updated_at > now() - interval '10 minutes'
      returning n.user_id
  )
  insert into public.notifications (user_id, workspace_id, task_id, type, actor_id, comment_id, email_delivery)
    select r.user_id, workspace, task, r.type, actor, comment, r.email_delivery
    from recipients r
    where r.user_id not in (select f.user_id from folded f);
end;
$$;
revoke all on function private.write_notifications(uuid, uuid, uuid, uuid, jsonb) from public;

-- After each event of a task or a comment: watchers added, then notifications written.
create function private.notify_of_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  text_field text := case when new.type like 'comment.%' then 'body' else 'description' end;
  mentioned uuid[] := '{}';
  assignee uuid;
  status_changed boolean := false;
  comment uuid;
  candidates jsonb;
begin
  if new.type in ('comment.created', 'comment.updated', 'task.created', 'task.updated') then
    mentioned := private.mentioned_user_ids(new.data ->> text_field);
    if new.type like '%.updated' then
      if not coalesce(new.previous_attributes ? text_field, false) then
        mentioned := '{}';
      else
        mentioned := array(
          select unnest(mentioned)
          except select unnest(private.mentioned_user_ids(new.previous_attributes ->> text_field))
        );
      end if;
    end if;
  end if;
  if new.type = 'task.created'
    or (new.type = 'task.updated' and coalesce(new.previous_attributes ? 'assignee_id', false)) then
    assignee := (new.data ->> 'assignee_id')::uuid;
  end if;
  if new.type in ('task.moved', 'task.updated') then
    status_changed := coalesce(new.previous_attributes ? 'status', false);
  end if;
  if new.type like 'comment.%' then
    comment := (new.data ->> 'id')::uuid;
  end if;
  if cardinality(mentioned) = 0 and assignee is null and not status_changed
    and new.type not in ('task.created', 'comment.created') then
    return null;
  end if;

  -- Who watches from now on: whoever created the task or commented, its assignee and whoever was
  -- mentioned, if they are members.
  insert into public.task_watchers (task_id, user_id, workspace_id)
    select new.task_id, m.user_id, new.workspace_id
    from public.memberships m
    where m.workspace_id = new.workspace_id
      and (m.user_id = any (mentioned) or m.user_id = assignee
           or (m.user_id = new.actor_id and new.type in ('task.created', 'comment.created')))
    on conflict do nothing;

  select coalesce(jsonb_agg(c), '[]'::jsonb) into candidates from (
    select u as user_id, 'mentioned' as type, 1 as rank from unnest(mentioned) u
    union all
    select assignee, 'assigned', 2 where assignee is not null
    union all
    select w.user_id, 'commented', 3 from public.task_watchers w
      where w.task_id = new.task_id and new.type = 'comment.created'
    union all
    select w.user_id, 'status_changed', 4 from public.task_watchers w
      where w.task_id = new.task_id and status_changed
  ) c;
  perform private.write_notifications(new.workspace_id, new.task_id, new.actor_id, comment, candidates);
  return null;
end;
$$;
revoke all on function private.notify_of_event() from public;

create trigger events_notify after insert on public.events
  for each row when (new.task_id is not null and new.type in (
    'task.created', 'task.updated', 'task.moved', 'comment.created', 'comment.updated'))
  execute function private.notify_of_event();

-- Whoever sent an invitation hears that it was accepted.
create function private.notify_of_accepted_invitation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, workspace_id, type, actor_id, email_delivery)
    select new.invited_by, new.workspace_id, 'invitation_accepted', new.accepted_by,
      case coalesce(s.delivery, private.default_notification_delivery('invitation_accepted'))
        when 'email_now' then 'now' when 'email_digest' then 'digest' end
    from public.memberships m
    left join public.notification_settings s on s.user_id = m.user_id and s.type = 'invitation_accepted'
    where m.workspace_id = new.workspace_id and m.user_id = new.invited_by
      and new.invited_by is distinct from new.accepted_by
      and coalesce(s.delivery, private.default_notification_delivery('invitation_accepted')) <> 'off';
  return null;
end;
$$;
revoke all on function private.notify_of_accepted_invitation() from public;
create trigger invitations_notify_accepted after update of status on public.invitations
  for each row when (old.status <> 'accepted' and new.status = 'accepted')
  execute function private.notify_of_accepted_invitation();

-- A member removed gets nothing more from the workspace, and what they had is gone.
create function private.forget_removed_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.notifications n where n.user_id = old.user_id and n.workspace_id = old.workspace_id;
  delete from public.task_watchers w where w.user_id = old.user_id and w.workspace_id = old.workspace_id;
  return null;
end;
$$;
revoke all on function private.forget_removed_member() from public;
create trigger memberships_forget_removed_member after delete on public.memberships
  for each row execute function private.forget_removed_member();

-- Due dates: the assignee of an open task hears the day before it is due (due_soon) and once it is past
-- (overdue), each once per due date, by the day in their own time zone. Run by every run of the
-- notification mail (POST /v1/internal/notification-mail, every minute); how many notifications it wrote. Tasks overdue for more than 30
-- days are not told of any more.
create function private.notify_due_tasks()
returns bigint
language sql
volatile
security definer
set search_path = ''
as $$
  with due as (
    select t.id as task_id, t.workspace_id, t.assignee_id as user_id, t.due_date,
      case when t.due_date = today.d + 1 then 'due_soon' else 'overdue' end as type
    from public.tasks t
    join public.memberships m on m.workspace_id = t.workspace_id and m.user_id = t.assignee_id
    left join public.profiles p on p.user_id = t.assignee_id
    cross join lateral (select (now() at time zone coalesce(p.time_zone, 'UTC'))::date as d) today
    where t.assignee_id is not null and t.status not in ('done', 'canceled')
      and t.due_date between current_date - 31 and current_date + 2
      and (t.due_date = today.d + 1 or (t.due_date < today.d and t.due_date >= today.d - 30))
  ),
  written as (
    insert into public.notifications (user_id, workspace_id, task_id, type, due_date, email_delivery)
      select d.user_id, d.workspace_id, d.task_id, d.type, d.due_date,
        case coalesce(s.delivery, private.default_notification_delivery(d.type))
          when 'email_now' then 'now' when 'email_digest' then 'digest' end
      from due d
      left join public.notification_settings s on s.user_id = d.user_id and s.type = d.type
      where coalesce(s.delivery, private.default_notification_delivery(d.type)) <> 'off'
      on conflict (user_id, task_id, type, due_date) where due_date is not null do nothing
      returning 1
  )
  select count(*) from written;
$$;
revoke all on function private.notify_due_tasks() from public;
create index tasks_due_date_idx on public.tasks (due_date) where assignee_id is not null and due_date is not null;


-- Live: a private topic per person ----------------------------------------------------------------------

-- Each person's topic, `user:<uuid>`, says only that their notifications changed (written, folded, read
-- or archived), never what they say: the web app reads them through the API.
create function private.broadcast_notifications_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- What realtime.send does, for every recipient in one insert and one subtransaction rather than one
  -- each (docs/supabase-protocols.md#broadcast-from-the-database): a comment on a task 50 people watch
  -- would otherwise pay 49 subtransactions. Like realtime.send, a failure is a warning, never the change's.
  begin
    insert into realtime.messages (id, topic, extension, event, private, payload)
      select m.id, 'user:' || m.user_id::text, 'broadcast', 'notifications', true,
        jsonb_build_object('type', 'notifications', 'id', m.id)
      from (select r.user_id, gen_random_uuid() as id from (select distinct c.user_id from changed c) r) m;
  exception when others then
    raise warning 'notifications not broadcast: %', sqlerrm;
  end;
  return null;
end;
$$;
revoke all on function private.broadcast_notifications_changed() from public;
create trigger notifications_broadcast_inserted after insert on public.notifications
  referencing new table as changed
  for each statement execute function private.broadcast_notifications_changed();
create trigger notifications_broadcast_updated after update on public.notifications
  referencing new table as changed
  for each statement execute function private.broadcast_notifications_changed();

create policy "People receive their own topic's broadcasts" on realtime.messages
  for select to authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and (select realtime.topic()) = 'user:' || (select auth.uid())::text
  );
