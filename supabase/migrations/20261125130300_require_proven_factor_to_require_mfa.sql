-- Nobody may lock a workspace behind a factor they have not proven: turning require_mfa on takes a
-- session that verified its second factor (aal2, and a session: an API token's aal2 only says its person
-- has a factor). The API checks it first to answer precisely; this holds it for the Data API too. Writes
-- without a caller (the service, migrations, tests' fixtures) are not users' and pass.
create or replace function private.require_proven_factor_to_require_mfa()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.require_mfa and not old.require_mfa and (select auth.uid()) is not null
     and not (
       coalesce((select auth.jwt() ->> 'aal') = 'aal2', false)
       and (select auth.jwt() ->> 'session_id') is not null
     )
  then
    raise exception 'turning require_mfa on needs a session that verified a second factor'
      using errcode = 'P0001', hint = 'mfa_required';
  end if;
  return new;
end;
$$;
revoke execute on function private.require_proven_factor_to_require_mfa() from public, anon, authenticated;

create trigger workspaces_require_proven_factor before update of require_mfa on public.workspaces
  for each row execute function private.require_proven_factor_to_require_mfa();
