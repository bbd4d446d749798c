-- Helpers that RLS policies call (membership checks and the like) live in `private`: security definer
-- functions with an empty search_path, out of reach of the API roles except to execute them.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- Every function created in public or private is executable only where a migration grants it.
alter default privileges in schema private revoke execute on functions from public;
