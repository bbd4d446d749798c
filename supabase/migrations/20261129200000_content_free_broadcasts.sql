-- Security issue 23, item 3 (docs/decisions/0033-content-free-broadcasts.md, docs/realtime.md): the
-- workspace's broadcasts carry no content. Hosted Realtime authorizes a channel when it joins and when
-- its token is refreshed, not for each message, so a person removed from a workspace (or an aal1 session
-- of a workspace that has since turned MFA on) goes on receiving its messages until then. A message now
-- says only that something changed and where: ids, the event type, the resource's version, the event's
-- seq, the feed cursors around it, the actor and the NAMES of the changed fields, never their values.
-- Clients read the change itself through the change feed, which checks access on every call.
-- Replaces the payload builders of 20261128100000_create_realtime_broadcasts.sql; the trigger that sends
-- them is unchanged.

-- The message of one event: ids at the top (project_id, task_id, resource_id: the task, comment, label or
-- project, or the member's user id), `version` the resource's version after the change (for a deletion,
-- its last), `cursor` the feed's cursor right after the event and `previous_cursor` the one right before
-- it (reading the feed `after` it answers this event first, for a client that has no position yet), and
-- `changed` the names of the fields that changed: every field on a creation (`*.created`, `member.added`),
-- the changed ones on an update, none on a deletion; identity and bookkeeping fields are never named.
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
          when event.type ~ '\.(created|added)$' then event.data
          else '{}'::jsonb
        end
      ) as name
      where name <> all (
        array['object', 'id', 'user_id', 'workspace_id', 'project_id', 'task_id', 'version', 'created_at', 'updated_at']
      )
    )
  );
$$;
revoke all on function private.event_broadcast_payload(public.events) from public;

-- The message that stands for a transaction's events seq_from..seq_to of one workspace: their types and
-- projects (null when more than 10, to stay small: refetch every project), the cursor after the last of
-- them and the one before the first.
create or replace function private.bulk_broadcast_payload(workspace uuid, seq_from bigint, seq_to bigint)
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
    'previous_cursor', private.feed_cursor(workspace, seq_from - 1),
    'types', (select jsonb_agg(distinct e.type order by e.type) from public.events e
              where e.workspace_id = workspace and e.seq between seq_from and seq_to),
    'project_ids', (select case when count(*) <= 10 then coalesce(jsonb_agg(p.id order by p.id), '[]'::jsonb) end
                    from (select distinct e.project_id as id from public.events e
                          where e.workspace_id = workspace and e.seq between seq_from and seq_to
                            and e.project_id is not null) p)
  );
$$;
revoke all on function private.bulk_broadcast_payload(uuid, bigint, bigint) from public;
