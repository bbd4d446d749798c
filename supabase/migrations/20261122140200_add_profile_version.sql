-- Profiles carry `version` like every other resource (SPEC §7), so that PATCH /v1/me takes If-Match.
-- bump_version also sets updated_at, so it replaces the profile's own updated_at trigger.
alter table public.profiles add column version integer not null default 1;
drop trigger set_updated_at on public.profiles;
create trigger profiles_bump_version before update on public.profiles
  for each row execute function private.bump_version();
