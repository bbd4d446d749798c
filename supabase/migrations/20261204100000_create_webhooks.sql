-- Webhooks (SPEC §3, §4, §7; docs/webhooks.md, docs/decisions/0049): a workspace's admins subscribe a URL
-- to event types; every event committed while a webhook is active and subscribed to its type gets a
-- delivery row, written by a trigger on public.events in the event's own transaction (the outbox). The
-- dispatcher function claims due deliveries (for update skip locked), sends them, and records each try.
--
-- Secrets live in private.webhook_secrets, out of reach of /rest/v1: the API shows one once, when it is
-- made, and the dispatcher signs with it (and with the previous one for 24 hours after a rotation).

create table public.webhooks (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  url text not null check (char_length(url) between 1 and 2048),
  -- Event types, `resource.*` or `*`; the API checks each against the known types.
  events text[] not null check (
    cardinality(events) between 1 and 64 and array_position(events, null) is null
  ),
  active boolean not null default true,
  -- Why the dispatcher stopped it: `failing` (every delivery failed for 3 days) or `gone` (410).
  disabled_reason text check (disabled_reason in ('failing', 'gone')),
  -- Since when every try failed; cleared by any success.
  failing_since timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhooks_workspace_id_idx on public.webhooks (workspace_id, created_at, id);
create trigger webhooks_bump_version before update on public.webhooks
  for each row execute function private.bump_version();

-- At most 10 per workspace, counted under the workspace's row lock so two creations cannot both pass;
-- switching one on again clears why it was stopped.
create function private.check_webhook_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform 1 from public.workspaces w where w.id = new.workspace_id for no key update;
    if (select count(*) from public.webhooks h where h.workspace_id = new.workspace_id) >= 10 then
      raise exception 'webhook limit reached' using errcode = 'P0001', hint = 'limit_reached';
    end if;
    new.created_by := (select auth.uid());
  elsif new.active and not old.active then
    new.disabled_reason := null;
    new.failing_since := null;
  end if;
  return new;
end;
$$;
revoke all on function private.check_webhook_write() from public;
create trigger webhooks_check_write before insert or update on public.webhooks
  for each row execute function private.check_webhook_write();

alter table public.webhooks enable row level security;
create policy "Admins read their workspaces' webhooks" on public.webhooks
  for select to authenticated using ((select private.is_admin(workspace_id)));
create policy "Admins add webhooks" on public.webhooks
  for insert to authenticated with check ((select private.is_admin(workspace_id)));
create policy "Admins change webhooks" on public.webhooks
  for update to authenticated
  using ((select private.is_admin(workspace_id)))
  with check ((select private.is_admin(workspace_id)));
create policy "Admins remove webhooks" on public.webhooks
  for delete to authenticated using ((select private.is_admin(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on public.webhooks
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
create policy "Only live sessions and tokens" on public.webhooks
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
revoke all on table public.webhooks from anon, authenticated;
grant select, delete on public.webhooks to authenticated;
grant insert (id, workspace_id, url, events, active) on public.webhooks to authenticated;
grant update (url, events, active) on public.webhooks to authenticated;

-- What the RLS policies below ask of a caller who manages a workspace's webhooks, for the functions that
-- act past them (security definer): an admin, with aal2 where the workspace requires MFA, on a live
-- session or token.
create function private.caller_manages_webhooks(workspace uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_admin(workspace)
    and ((select auth.jwt() ->> 'aal') = 'aal2' or workspace not in (select private.caller_mfa_workspace_ids()))
    and private.caller_credential_is_live()
$$;
revoke all on function private.caller_manages_webhooks(uuid) from public, anon;

create table private.webhook_secrets (
  webhook_id uuid primary key references public.webhooks (id) on delete cascade,
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]{43}=$'),
  -- After a rotation, the old secret signs too until previous_expires_at.
  previous_secret text check (previous_secret ~ '^whsec_[A-Za-z0-9+/]{43}=$'),
  previous_expires_at timestamptz,
  check ((previous_secret is null) = (previous_expires_at is null))
);

-- Sets the webhook's secret, for a caller who manages its workspace's webhooks; a
-- rotation keeps the old one signing for 24 hours. Made by the API (32 random bytes), never read back.
create function private.set_webhook_secret(webhook uuid, new_secret text, rotate boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from public.webhooks h where h.id = webhook and private.caller_manages_webhooks(h.workspace_id)
  ) then
    raise exception 'no such webhook' using errcode = 'P0001', hint = 'not_found';
  end if;
  insert into private.webhook_secrets (webhook_id, secret) values (webhook, new_secret)
    on conflict (webhook_id) do update set
      secret = excluded.secret,
      previous_secret = case when rotate then private.webhook_secrets.secret end,
      previous_expires_at = case when rotate then now() + interval '24 hours' end;
end;
$$;
revoke all on function private.set_webhook_secret(uuid, text, boolean) from public, anon;
grant execute on function private.set_webhook_secret(uuid, text, boolean) to authenticated;

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references public.webhooks (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- The event delivered (kept 30 days, longer than any retry); null for a test `ping`.
  event_id bigint references public.events (id) on delete cascade,
  event_type text not null check (event_type ~ '^[a-z_]+(\.[a-z_]+)?$'),
  -- A ping's body; an event's is made from the event when sent, the same every time.
  payload jsonb,
  status text not null default 'pending' check (status in ('pending', 'retrying', 'succeeded', 'failed')),
  attempts integer not null default 0,
  -- How far along the retry schedule the delivery is (a redelivery starts it again).
  retry_step integer not null default 0,
  next_attempt_at timestamptz default now(),
  last_attempt_at timestamptz,
  last_request_headers jsonb,
  last_response_code integer,
  last_response_body text check (octet_length(last_response_body) <= 4096),
  last_latency_ms integer,
  last_error text check (char_length(last_error) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((event_id is null) = (event_type = 'ping')),
  check ((payload is null) = (event_id is not null))
);
create index webhook_deliveries_webhook_id_idx on public.webhook_deliveries (webhook_id, created_at desc, id desc);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at)
  where status in ('pending', 'retrying');
create index webhook_deliveries_event_id_idx on public.webhook_deliveries (event_id);

alter table public.webhook_deliveries enable row level security;
create policy "Admins read their workspaces' deliveries" on public.webhook_deliveries
  for select to authenticated using ((select private.is_admin(workspace_id)));
create policy "Workspaces that require MFA admit aal2 only" on public.webhook_deliveries
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
create policy "Only live sessions and tokens" on public.webhook_deliveries
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
revoke all on table public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;

-- Whether a webhook listening to `events` hears an event of `event_type`.
create function private.webhook_hears(events text[], event_type text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select event_type = any (events) or split_part(event_type, '.', 1) || '.*' = any (events) or '*' = any (events)
$$;
revoke all on function private.webhook_hears(text[], text) from public;

-- The outbox: each event gets one delivery per active webhook of its workspace that hears its type, in
-- the event's transaction, so none is lost and none goes to a webhook made after it committed.
create function private.queue_webhook_deliveries()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.webhook_deliveries (webhook_id, workspace_id, event_id, event_type)
    select h.id, h.workspace_id, new.id, new.type
    from public.webhooks h
    where h.workspace_id = new.workspace_id and h.active and private.webhook_hears(h.events, new.type);
  return null;
end;
$$;
revoke all on function private.queue_webhook_deliveries() from public;
create trigger events_queue_webhook_deliveries after insert on public.events
  for each row execute function private.queue_webhook_deliveries();

-- `POST …/webhooks/{id}/test`: a ping for an admin's webhook, due at once; the delivery, as queued.
create function private.queue_webhook_ping(webhook uuid)
returns public.webhook_deliveries
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook public.webhooks;
  queued public.webhook_deliveries;
begin
  select * into hook from public.webhooks h
    where h.id = webhook and private.caller_manages_webhooks(h.workspace_id);
  if hook.id is null then
    raise exception 'no such webhook' using errcode = 'P0001', hint = 'not_found';
  end if;
  insert into public.webhook_deliveries (webhook_id, workspace_id, event_type, payload)
    values (hook.id, hook.workspace_id, 'ping', jsonb_build_object(
      'type', 'ping',
      'timestamp', private.iso_timestamp(now()),
      'data', jsonb_build_object('object', 'ping', 'webhook_id', hook.id, 'url', hook.url)))
    returning * into queued;
  return queued;
end;
$$;
revoke all on function private.queue_webhook_ping(uuid) from public, anon;
grant execute on function private.queue_webhook_ping(uuid) to authenticated;

-- `POST …/deliveries/{id}/redeliver`: the delivery is due again at once, with its schedule from the
-- start and the same webhook-id; an admin's only.
create function private.redeliver_webhook_delivery(delivery uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.webhook_deliveries d
    set status = 'pending', retry_step = 0, next_attempt_at = now(), updated_at = now()
    where d.id = delivery and private.caller_manages_webhooks(d.workspace_id);
  if not found then
    raise exception 'no such delivery' using errcode = 'P0001', hint = 'not_found';
  end if;
end;
$$;
revoke all on function private.redeliver_webhook_delivery(uuid) from public, anon;
grant execute on function private.redeliver_webhook_delivery(uuid) to authenticated;
