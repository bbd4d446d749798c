-- Live boards (issue 16, docs/realtime.md, docs/decisions/0022): every event appended to public.events
-- is broadcast on the workspace's private Realtime topic `workspace:<workspace id>` once its
-- transaction commits, with a small payload any member (viewers too) may read; the client catches up
-- through the change feed from the payload's `cursor`. A transaction that appends more than 20 events
-- to one workspace sends one `bulk` message instead, telling clients what to refetch. And the policies
-- on realtime.messages that let members, and only members, join that topic.

-- The change feed's cursor for a position: what GET /v1/workspaces/{slug}/events answers as
-- `next_cursor` and takes as `after` (supabase/functions/api/http/cursor.ts: base64url, unpadded, of the
-- JSON array [format version 1, workspace id, seq], written as JSON.stringify writes it).
create function private.feed_cursor(workspace uuid, seq bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.translate(
    pg_catalog.rtrim(
      pg_catalog.encode(pg_catalog.convert_to('[1,"' || workspace::text || '",' || seq::text || ']', 'UTF8'), 'base64'),
      '='
    ),
    E'+/\n', '-_'
  );
$$;
revoke all on function private.feed_cursor(uuid, bigint) from public;

-- The message of one event, from the event row alone (its `data` is the resource as the API answers it,
-- `previous_attributes` the fields that changed), so every event type is told one way:
--   ids at the top (project_id, task_id, resource_id: the task, comment, label or project, or the
--   member's user id), `version` the resource's version after the change (for a deletion, its last);
--   `fields` the new values of what changed: every field on a creation (`*.created`, `member.added`),
--   the changed ones on an update, none on a deletion;
--   `omitted` the changed fields left out: always the long texts (a task's or project's description, a
--   comment's body), which a viewer may read but no message carries; then, while the payload would
--   not stay under 1 KB (realtime.send adds its `id`), the biggest remaining field. A client refetches
--   the resource when `omitted` is not empty.
create function private.event_broadcast_payload(event public.events)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  -- Under 1 KB once realtime.send has added `"id": "<uuid>"` (46 bytes), measured as jsonb prints it,
  -- with spaces the wire's JSON does not have.
  budget constant integer := 960;
  long_texts constant text[] := array['description', 'body'];
  -- Identity and bookkeeping, told at the top level or not at all.
  not_fields constant text[] :=
    array['object', 'id', 'user_id', 'workspace_id', 'project_id', 'task_id', 'version', 'created_at', 'updated_at'];
  changed text[];
  fields jsonb;
  omitted jsonb;
  payload jsonb;
  biggest text;
begin
  if event.previous_attributes is not null then
    changed := array(select jsonb_object_keys(event.previous_attributes));
  elsif event.type ~ '\.(created|added)$' then
    changed := array(select jsonb_object_keys(event.data));
  else
    changed := '{}';
  end if;
  changed := array(select c from unnest(changed) c where c <> all (not_fields));
  select coalesce(jsonb_object_agg(c, event.data -> c), '{}'::jsonb) into fields
    from unnest(changed) c where c <> all (long_texts);
  select coalesce(jsonb_agg(c order by c), '[]'::jsonb) into omitted
    from unnest(changed) c where c = any (long_texts);
  payload := jsonb_build_object(
    'seq', event.seq,
    'cursor', private.feed_cursor(event.workspace_id, event.seq),
    'type', event.type,
    'project_id', event.project_id,
    'task_id', event.task_id,
    'resource_id', case when event.type like 'member.%' then event.data -> 'user_id' else event.data -> 'id' end,
    'version', (event.data ->> 'version')::integer,
    'actor_id', event.actor_id
  );
  while octet_length((payload || jsonb_build_object('fields', fields, 'omitted', omitted))::text) > budget
    and fields <> '{}'::jsonb loop
    select f.key into biggest from jsonb_each(fields) f order by octet_length(f.value::text) desc, f.key limit 1;
    fields := fields - biggest;
    omitted := omitted || to_jsonb(biggest);
  end loop;
  return payload || jsonb_build_object('fields', fields, 'omitted', omitted);
end;
$$;
revoke all on function private.event_broadcast_payload(public.events) from public;

-- The message that stands for a transaction's events seq_from..seq_to of one workspace: their types
-- and projects (null when more than 10, to stay small: refetch every project), and the cursor after
-- the last of them.
create function private.bulk_broadcast_payload(workspace uuid, seq_from bigint, seq_to bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'type', 'bulk',
    'seq_from', seq_from,
    'seq_to', seq_to,
    'cursor', private.feed_cursor(workspace, seq_to),
    'types', (select jsonb_agg(distinct e.type order by e.type) from public.events e
              where e.workspace_id = workspace and e.seq between seq_from and seq_to),
    'project_ids', (select case when count(*) <= 10 then coalesce(jsonb_agg(p.id order by p.id), '[]'::jsonb) end
                    from (select distinct e.project_id as id from public.events e
                          where e.workspace_id = workspace and e.seq between seq_from and seq_to
                            and e.project_id is not null) p)
  );
$$;
revoke all on function private.bulk_broadcast_payload(uuid, bigint, bigint) from public;

-- Sends this transaction's events of the new event's workspace, once, when the transaction commits.
--
-- The events are appended one INSERT at a time by row triggers, so no statement-level trigger sees a
-- transaction's events together. This runs as a deferred constraint trigger: for each event, at
-- commit, in the order they were appended. The first to run for a workspace sends every event of the
-- transaction in that workspace (one message each, or one `bulk` for more than 20) and records the
-- last seq sent in a transaction-local setting; the others find their seq sent and do nothing.
--
-- Which events are this transaction's needs no bookkeeping while appending: private.append_event
-- keeps the workspace's counter row locked from the transaction's first event to its commit
-- (docs/decisions/0010), so its events in that workspace are exactly those from the first unsent seq
-- on. Reading them at commit also reads their final state (a deletion later in the transaction may
-- have redacted them). Nothing runs on rollback, and a rolled-back savepoint takes its events and
-- their pending triggers with it. If a client runs SET CONSTRAINTS ALL IMMEDIATE, the events so far
-- are sent then and the later ones at the end of their statements, each once.
--
-- Security definer: the caller (authenticated, under RLS) may neither read every event nor broadcast
-- on the topic. realtime.send() swallows its own errors as warnings: a broadcast never fails a change.
create function private.broadcast_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  bulk_over constant integer := 20;
  sent jsonb := coalesce(nullif(current_setting('tasklane.broadcast_sent_seq', true), ''), '{}')::jsonb;
  workspace text := new.workspace_id::text;
  topic text := 'workspace:' || workspace;
  seq_from bigint;
  seq_to bigint;
  total integer;
  event public.events;
begin
  if (sent ->> workspace)::bigint >= new.seq then
    return null;
  end if;
  select min(e.seq), max(e.seq), count(*) into seq_from, seq_to, total
    from public.events e where e.workspace_id = new.workspace_id and e.seq >= new.seq;
  if total = 0 then
    -- Gone with its workspace in this same transaction: nobody is left to tell.
    return null;
  end if;
  perform pg_catalog.set_config(
    'tasklane.broadcast_sent_seq', (sent || jsonb_build_object(workspace, seq_to))::text, true
  );
  if total > bulk_over then
    perform realtime.send(private.bulk_broadcast_payload(new.workspace_id, seq_from, seq_to), 'bulk', topic, true);
  else
    for event in
      select * from public.events e where e.workspace_id = new.workspace_id and e.seq >= seq_from order by e.seq
    loop
      perform realtime.send(private.event_broadcast_payload(event), event.type, topic, true);
    end loop;
  end if;
  return null;
end;
$$;
revoke all on function private.broadcast_events() from public;

create constraint trigger events_broadcast after insert on public.events
  deferrable initially deferred
  for each row execute function private.broadcast_events();

-- Who may use a workspace's topic (shared/reference/supabase-protocols.md §2.11: Realtime checks a
-- private channel by these policies, as the joining user with `realtime.topic` set to the channel's
-- topic). Members of any role receive its broadcasts and presence and track their own presence;
-- nobody broadcasts on it but the database (the trigger above, as the owner, which bypasses RLS). As on
-- every workspace table, an aal1 session gets nothing of a workspace that requires MFA.

-- The topics of the caller's workspaces this session is admitted to: all of them at aal2, those that
-- do not require MFA at aal1. Computed once per statement by the policies (an initPlan), from
-- memberships by user_id (memberships_user_id_idx) and workspaces by id.
create function private.caller_realtime_topics()
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select 'workspace:' || w.id::text
  from public.memberships m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid())
    and ((select auth.jwt() ->> 'aal') = 'aal2' or not w.require_mfa);
$$;
revoke all on function private.caller_realtime_topics() from public;
grant execute on function private.caller_realtime_topics() to authenticated;

create policy "Members receive their workspaces' broadcasts and presence" on realtime.messages
  for select to authenticated
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and (select realtime.topic()) in (select private.caller_realtime_topics())
  );

create policy "Members track their presence on their workspaces' topics" on realtime.messages
  for insert to authenticated
  with check (
    realtime.messages.extension = 'presence'
    and realtime.messages.topic = (select realtime.topic())
    and (select realtime.topic()) in (select private.caller_realtime_topics())
  );
