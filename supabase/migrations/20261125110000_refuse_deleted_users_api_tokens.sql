-- A soft-deleted user's API tokens stop working: GoTrue's soft delete keeps the auth.users row (with
-- deleted_at set) and ends the sessions, but the tokens are ours, so the lookup refuses them itself.
-- Such a token is answered as if it did not exist, as after a hard delete (which cascades to it), and
-- its use is not recorded. Everything else is as in 20261122130100_create_api_tokens.sql.
create or replace function private.authenticate_api_token(presented_hash bytea)
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
