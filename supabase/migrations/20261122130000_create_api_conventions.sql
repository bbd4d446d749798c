-- The bookkeeping behind two API conventions every endpoint shares (docs/decisions/0006):
-- idempotency keys, stored in the caller's own transaction together with the effect they record, and
-- rate-limit counters, kept by the service where no API role can see them.

-- One answer per (principal, Idempotency-Key), replayed to retries for a day (SPEC §3, §7). The row is
-- written by the request it records, in the same transaction and as the same caller, so the answer is
-- stored exactly when the effect commits. Rows are never changed: they expire.
create table public.idempotency_keys (
  id uuid primary key default gen_random_uuid(),
  -- Whose row it is, for the policies; the key space itself is `principal`.
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  -- `user:<user id>` for a sign-in session, `api_token:<token id>` for an API token: each has its own keys.
  principal text not null check (principal ~ '^(user|api_token):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  key text not null check (char_length(key) between 1 and 255),
  -- SHA-256 (hex) of the request's method, path, query and canonical body.
  request_hash text not null check (request_hash ~ '^[0-9a-f]{64}$'),
  -- The first answer: {status, headers, body}.
  response jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- Scoped to the user as well, so that no row of one user can ever collide with another's keys.
  constraint idempotency_keys_user_id_principal_key_key unique (user_id, principal, key),
  check (expires_at > created_at)
);

create index idempotency_keys_expires_at_idx on public.idempotency_keys (expires_at);

-- Access: a caller reads, records and clears their own keys only. There is no update: a record is
-- replaced by deleting the expired one first. `anon` gets nothing.
alter table public.idempotency_keys enable row level security;
revoke all on table public.idempotency_keys from anon, authenticated;
grant select, delete on table public.idempotency_keys to authenticated;
grant insert (principal, key, request_hash, response, expires_at) on table public.idempotency_keys
  to authenticated;

create policy "People see their own idempotency keys"
on public.idempotency_keys for select to authenticated
using (user_id = (select auth.uid()));

-- A session's keys are the user's; an API token's are the token's (the API names only the caller's own).
create policy "People record their own idempotency keys"
on public.idempotency_keys for insert to authenticated
with check (
  user_id = (select auth.uid())
  and (principal = 'user:' || (select auth.uid()) or principal like 'api_token:%')
);

create policy "People clear their own idempotency keys"
on public.idempotency_keys for delete to authenticated
using (user_id = (select auth.uid()));

-- Deletes up to `batch_size` expired keys of anyone, skipping rows another transaction holds; answers
-- how many went. The API calls it as the caller when it records a key (expired rows are dead, so letting
-- any caller sweep them reveals and changes nothing live); a scheduled job may call it too.
create function private.delete_expired_idempotency_keys(batch_size integer default 1000)
returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  with expired as (
    select id from public.idempotency_keys
    where expires_at <= now()
    order by expires_at
    limit batch_size
    for update skip locked
  ), deleted as (
    delete from public.idempotency_keys as record
    using expired
    where record.id = expired.id
    returning 1
  )
  select count(*)::integer from deleted
$$;

revoke all on function private.delete_expired_idempotency_keys(integer) from public;
grant execute on function private.delete_expired_idempotency_keys(integer) to authenticated, service_role;

-- Request counters for the rate limits (SPEC §9), one row per bucket (`ip:<address>`, `user:<id>`,
-- `api_token:<id>`) in fixed windows. Unlogged: a crash may forget a minute of counts, and in return no
-- request pays for WAL. Only the service (the API's own connection role) touches it.
create unlogged table private.rate_limit_counters (
  bucket text primary key,
  window_started_at timestamptz not null,
  hits integer not null check (hits >= 0)
);

revoke all on table private.rate_limit_counters from public, anon, authenticated;

-- Counts one request against `bucket` in the current window of `window_seconds` (windows start at
-- multiples of it since the epoch) and answers the count so far, the window's start and the seconds
-- until the next one. One statement: the upsert both counts and reads. A transaction that started just
-- before a boundary but arrives after it counts in the newer window rather than resetting it.
create function private.count_request(bucket text, window_seconds integer)
returns table (hits integer, window_started_at timestamptz, resets_in_seconds integer)
language sql
volatile
set search_path = ''
as $$
  insert into private.rate_limit_counters as counter (bucket, window_started_at, hits)
  values (
    count_request.bucket,
    to_timestamp(floor(extract(epoch from now()) / count_request.window_seconds) * count_request.window_seconds),
    1
  )
  on conflict on constraint rate_limit_counters_pkey do update
    set hits = case
          when counter.window_started_at >= excluded.window_started_at then counter.hits + 1
          else 1
        end,
        window_started_at = greatest(counter.window_started_at, excluded.window_started_at)
  returning
    counter.hits,
    counter.window_started_at,
    greatest(1, ceil(extract(epoch from
      counter.window_started_at + make_interval(secs => count_request.window_seconds) - now()
    )))::integer
$$;

-- Takes back one counted request (a `304 Not Modified` is free, SPEC §7), if its window is still the
-- current one; answers the count now, or null when the window has passed.
create function private.uncount_request(bucket text, window_started_at timestamptz)
returns integer
language sql
volatile
set search_path = ''
as $$
  update private.rate_limit_counters as counter
  set hits = greatest(counter.hits - 1, 0)
  where counter.bucket = uncount_request.bucket
    and counter.window_started_at = uncount_request.window_started_at
  returning counter.hits
$$;

-- Deletes counters whose window started more than `older_than_seconds` ago: buckets of callers who have
-- gone quiet. For a scheduled job; the live rows are one per recent caller.
create function private.delete_stale_rate_limit_counters(older_than_seconds integer default 3600)
returns integer
language sql
volatile
set search_path = ''
as $$
  with deleted as (
    delete from private.rate_limit_counters as counter
    where counter.window_started_at < now() - make_interval(secs => older_than_seconds)
    returning 1
  )
  select count(*)::integer from deleted
$$;

revoke all on function private.count_request(text, integer) from public;
revoke all on function private.uncount_request(text, timestamptz) from public;
revoke all on function private.delete_stale_rate_limit_counters(integer) from public;
