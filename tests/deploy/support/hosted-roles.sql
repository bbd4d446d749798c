-- After the Supabase bootstrap (run as the superuser, supabase_admin): what hosted Supabase leaves the
-- `postgres` role, as supabase/postgres's "demote postgres" migration and its 2025 follow-up do.
-- The role itself is created, NOSUPERUSER, before the bootstrap (which grants to it).

-- It owns the database (`alter database postgres set …` works on hosted), so public is its schema.
alter database postgres owner to postgres;
grant all on database postgres to postgres;

-- What postgres creates in public is granted to the API roles by default; our migrations revoke it.
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

-- Since April 2025 postgres may read and reference auth's tables but not create anything in auth.
revoke create on schema auth from postgres;

-- A new project has no migration history: the CLI creates it, as postgres, on the first push.
drop schema supabase_migrations cascade;
