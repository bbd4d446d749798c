-- Personal API tokens (SPEC §3, §4, §6): what an integrator sends as `Authorization: Bearer tl_pat_…`.
-- A token acts as its user with scope `read` or `write`, and is active until it expires or is revoked.
-- Only the SHA-256 of the secret is stored, and no API role can read even that: the API verifies a
-- presented token through private.authenticate_api_token below.

create type public.api_token_scope as enum ('read', 'write');

create table public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 80),
  -- The secret's first characters, shown so that people can tell their tokens apart.
  prefix text not null check (prefix ~ '^tl_pat_[0-9A-Za-z]{4}$'),
  -- SHA-256 of the whole secret; the secret itself is shown once, in the create response.
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  scope public.api_token_scope not null,
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (expires_at > created_at)
);

-- Serves the policies (user_id), the newest-first list and the count of recent creations.
create index api_tokens_user_id_idx on public.api_tokens (user_id, created_at desc, id desc);

-- Recording a use (last_used_at) is bookkeeping, not a change of the token: it bumps no version.
create trigger api_tokens_bump_version
before update of name, scope, expires_at, revoked_at on public.api_tokens
for each row execute function private.bump_version();

-- Access: people read their own tokens (never the hashes), create them and revoke them; nothing else.
-- Managing tokens takes a sign-in session: an API token's claims carry no session_id, so a token cannot
-- create or revoke tokens even if the API forgot to refuse it.
alter table public.api_tokens enable row level security;
revoke all on table public.api_tokens from anon, authenticated;
grant select (id, user_id, name, prefix, scope, expires_at, last_used_at, revoked_at, version, created_at,
  updated_at) on table public.api_tokens to authenticated;
grant insert (user_id, name, prefix, token_hash, scope, expires_at) on table public.api_tokens to authenticated;
grant update (revoked_at) on table public.api_tokens to authenticated;

create policy "People see their own API tokens"
on public.api_tokens for select to authenticated
using (user_id = (select auth.uid()));

create policy "People create their own API tokens from a session, an aal2 one when they have MFA"
on public.api_tokens for insert to authenticated
with check (
  user_id = (select auth.uid())
  and (select auth.jwt() ->> 'session_id') is not null
  and ((select auth.jwt() ->> 'aal') = 'aal2' or not (select private.caller_has_verified_factor()))
);

create policy "People revoke their own API tokens from a session, for good"
on public.api_tokens for update to authenticated
using (user_id = (select auth.uid()) and (select auth.jwt() ->> 'session_id') is not null)
with check (user_id = (select auth.uid()) and revoked_at is not null);

-- The API's authenticate middleware asks this for every request that carries an API token, before it
-- knows the caller (so it runs as the service, not as `authenticated`): the token with that hash, its
-- state, and what the principal needs of its user. The status of a token of a banned user is `banned`.
-- A use of an active token is recorded in last_used_at at most once a minute, so that the hot path
-- rarely writes. A soft-deleted user's tokens stop working: GoTrue's soft delete keeps the auth.users row
-- (with deleted_at set) and ends the sessions, but the tokens are ours, so the lookup refuses them
-- itself. Such a token is answered as if it did not exist, as after a hard delete (which cascades to it),
-- and its use is not recorded.
create function private.authenticate_api_token(presented_hash bytea)
returns table (
  token_id uuid,
  user_id uuid,
  email text,
  scope public.api_token_scope,
  status text,
  expires_at timestamptz,
  has_verified_factor boolean
)
language sql
volatile
security definer
set search_path = ''
as $$
  with found as (
    select
      token.id as token_id,
      token.user_id,
      account.email::text as email,
      token.scope,
      case
        when token.revoked_at is not null then 'revoked'
        when token.expires_at <= now() then 'expired'
        when account.banned_until > now() then 'banned'
        else 'active'
      end as status,
      token.expires_at,
      exists (
        select 1 from auth.mfa_factors as factor
        where factor.user_id = token.user_id and factor.status = 'verified'
      ) as has_verified_factor,
      token.last_used_at
    from public.api_tokens as token
    join auth.users as account on account.id = token.user_id
    where token.token_hash = presented_hash
      and account.deleted_at is null
  ),
  recorded as (
    update public.api_tokens as token
    set last_used_at = now()
    from found
    where token.id = found.token_id
      and found.status = 'active'
      and (found.last_used_at is null or found.last_used_at < now() - interval '1 minute')
    returning token.id
  )
  select token_id, user_id, email, scope, status, expires_at, has_verified_factor from found
$$;

revoke all on function private.authenticate_api_token(bytea) from public;
grant execute on function private.authenticate_api_token(bytea) to service_role;
