-- Housekeeping: what expires is deleted on a schedule. Events after 30 days (SPEC §7), idempotency
-- records after their 24 hours (the API also sweeps a batch whenever it records one), and rate-limit
-- counters of callers who went quiet an hour ago. One function does all three, so that each scheduler
-- calls one thing: pg_cron on hosted Supabase (below), a timer in the local stand-in (local/housekeeping.ts).

create function private.delete_expired_rows()
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
  select 'rate_limit_counters', private.delete_stale_rate_limit_counters(3600)::bigint;
$$;
revoke all on function private.delete_expired_rows() from public;

-- Schedules delete_expired_rows hourly with pg_cron, when pg_cron is installed (its `cron` schema exists;
-- on hosted Supabase: Database → Extensions → pg_cron); answers whether it did. Scheduling again under
-- the same job name replaces the job. A project that enables pg_cron after this migration ran calls
-- `select private.schedule_housekeeping();` once.
create function private.schedule_housekeeping()
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_namespace where nspname = 'cron') then
    return false;
  end if;
  perform cron.schedule('tasklane-housekeeping', '17 * * * *', 'select private.delete_expired_rows()');
  return true;
end;
$$;
revoke all on function private.schedule_housekeeping() from public;

select private.schedule_housekeeping();
