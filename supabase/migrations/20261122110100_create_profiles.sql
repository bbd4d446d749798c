-- A person's public face in Tasklane (SPEC §3): one profile per Supabase Auth user, made by a trigger
-- when the user is, removed with it.

-- Profiles carry `version` like every other resource (SPEC §7), so that PATCH /v1/me takes If-Match.
create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 80),
  avatar_path text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1
);

create trigger profiles_bump_version before update on public.profiles
  for each row execute function private.bump_version();

-- The display name a new profile starts with: the one given at sign-up (user metadata `display_name`),
-- else the e-mail's local part, trimmed and cut to 80 characters.
create function private.initial_display_name(requested text, email text)
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    nullif(btrim(left(btrim(requested, E' \t\r\n'), 80), E' \t\r\n'), ''),
    nullif(btrim(left(btrim(split_part(email, '@', 1), E' \t\r\n'), 80), E' \t\r\n'), ''),
    'Tasklane user'
  )
$$;
revoke all on function private.initial_display_name(text, text) from public;

-- Security definer: Auth (supabase_auth_admin on hosted Supabase) inserts the user and may not write
-- to public tables itself.
create function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (user_id, display_name)
  values (new.id, private.initial_display_name(new.raw_user_meta_data ->> 'display_name', new.email))
  on conflict (user_id) do nothing;
  return new;
end
$$;
revoke all on function private.create_profile_for_new_user() from public;

create trigger create_profile_for_new_user
after insert on auth.users
for each row execute function private.create_profile_for_new_user();

-- Users who signed up before this migration get their profile now.
insert into public.profiles (user_id, display_name)
select account.id, private.initial_display_name(account.raw_user_meta_data ->> 'display_name', account.email)
from auth.users as account
on conflict (user_id) do nothing;

-- Access: the API reads as `authenticated` and may change only the writable columns; profiles are made
-- and removed by the triggers above, never by a caller. `anon` gets nothing.
alter table public.profiles enable row level security;
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (display_name, avatar_path) on table public.profiles to authenticated;

-- SPEC: a profile is read by anyone who shares a workspace with its owner. Workspaces arrive next, with
-- a second select policy for that; permissive policies for one command are OR-ed, so this one stays.
create policy "People see their own profile"
on public.profiles for select to authenticated
using (user_id = (select auth.uid()));

create policy "People edit their own profile"
on public.profiles for update to authenticated
using (user_id = (select auth.uid()))
with check (user_id = (select auth.uid()));
