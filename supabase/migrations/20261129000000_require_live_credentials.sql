-- The database's second line holds a session as the API does (issue 23, item 2). The API refuses an
-- access token whose session was signed out, timed out or whose user is banned or soft-deleted
-- (supabase/functions/_shared/auth/sessions.queries.ts), but Storage and Realtime check only RLS, whose
-- policies asked for membership alone: such a token kept listing and downloading its workspace's files
-- and joining its Realtime topic for the rest of its life. One helper now says whether the caller's
-- credential is still live, and one restrictive policy per table asks it, on every table a session can
-- reach: every table in public, private.project_former_keys, storage.objects and realtime.messages.
-- Written as `(select …)`, Postgres runs it once per statement (docs/decisions/0032).

-- Whether the caller's credential is live: an access token's session (`session_id`) still exists, is not
-- past its `not_after` and belongs to the token's user; or, for the API's API-token claims (no session,
-- `api_token_id`: only the API sets those, never GoTrue), the token is the user's, not revoked, not
-- expired. In both cases the user is neither banned nor soft-deleted. Claims without either are not live.
-- PL/pgSQL, so that its queries are planned once per session; security definer, since the caller may
-- read neither auth's tables nor other people's tokens.
create function private.caller_credential_is_live()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uuid_pattern constant text := '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
  claims jsonb := coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb;
  caller text := claims ->> 'sub';
  session text := claims ->> 'session_id';
  token text := claims ->> 'api_token_id';
begin
  if caller is null or caller !~ uuid_pattern then
    return false;
  end if;
  if session is not null then
    if session !~ uuid_pattern then
      return false;
    end if;
    perform 1 from auth.sessions s
      where s.id = session::uuid and s.user_id = caller::uuid and (s.not_after is null or s.not_after > now());
  elsif token is not null then
    if token !~ uuid_pattern then
      return false;
    end if;
    perform 1 from public.api_tokens t
      where t.id = token::uuid and t.user_id = caller::uuid and t.revoked_at is null and t.expires_at > now();
  else
    return false;
  end if;
  if not found then
    return false;
  end if;
  perform 1 from auth.users u
    where u.id = caller::uuid and u.deleted_at is null and (u.banned_until is null or u.banned_until <= now());
  return found;
end;
$$;
revoke all on function private.caller_credential_is_live() from public;
grant execute on function private.caller_credential_is_live() to authenticated;

create policy "Only live sessions and tokens" on public.api_tokens
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.attachments
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.comments
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.events
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.idempotency_keys
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.invitations
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.labels
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.memberships
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.profiles
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.projects
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.tasks
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on public.workspaces
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on private.project_former_keys
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on storage.objects
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
create policy "Only live sessions and tokens" on realtime.messages
  as restrictive for all to authenticated
  using ((select private.caller_credential_is_live()))
  with check ((select private.caller_credential_is_live()));
