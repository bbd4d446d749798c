-- Helpers that RLS policies call (membership checks and the like) live in `private`: security definer
-- functions with an empty search_path, out of reach of the API roles except to execute them.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- Functions are executable by PUBLIC when created, and `alter default privileges in schema private` cannot
-- take back that global grant; the API roles have USAGE on `private` (policies call its helpers). So every
-- function in `private` is revoked from PUBLIC where it is created, and granted to exactly the roles that
-- call it; tests/db/grants.test.ts fails when a function is callable beyond its list. Trigger functions
-- need no grant to fire.

-- Every resource carries `version`, bumped with `updated_at` on each change (ETag / If-Match). Shared by
-- every versioned table.
create function private.bump_version()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  new.updated_at := now();
  return new;
end;
$$;
revoke all on function private.bump_version() from public;

-- Timestamps as the API writes them: ISO 8601 in UTC with milliseconds. The JSON builders of every
-- resource call it once per timestamp, for pages of rows: a single-expression SQL function without SET
-- clauses is what Postgres inlines into the query, and naming every function with its schema keeps any
-- caller's search_path from changing what it calls (docs/decisions/0012).
create function private.iso_timestamp(value timestamptz)
returns text
language sql
stable
parallel safe
as $$
  select pg_catalog.to_char(pg_catalog.timezone('UTC', value), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
revoke all on function private.iso_timestamp(timestamptz) from public;
grant execute on function private.iso_timestamp(timestamptz) to authenticated;
