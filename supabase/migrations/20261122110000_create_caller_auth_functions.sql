-- What the API may know about the caller's own Supabase Auth records. The `auth` tables belong to GoTrue
-- and stay closed to `authenticated`; these security definer functions each answer one question about
-- the caller only (the user and session named by the request's JWT claims), never about anyone else.

-- The API's authenticate middleware asks this after verifying an access token's signature: a token
-- stays valid until it expires, but its session ends earlier on sign-out or when it times out.
create function private.caller_session_is_active()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from auth.sessions as session
    where session.id = nullif(auth.jwt() ->> 'session_id', '')::uuid
      and session.user_id = auth.uid()
      and (session.not_after is null or session.not_after > now())
  )
$$;

-- The caller's e-mail address and sign-up time, as Auth holds them now (the token's copy can be an hour old).
create function private.caller_account()
returns table (email text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select account.email::text, account.created_at
  from auth.users as account
  where account.id = auth.uid()
$$;

-- The caller's MFA factors, without their secrets.
create function private.caller_mfa_factors()
returns table (id uuid, friendly_name text, factor_type text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select factor.id, factor.friendly_name, factor.factor_type::text, factor.status::text, factor.created_at
  from auth.mfa_factors as factor
  where factor.user_id = auth.uid()
  order by factor.created_at, factor.id
$$;

revoke all on function private.caller_session_is_active() from public;
revoke all on function private.caller_account() from public;
revoke all on function private.caller_mfa_factors() from public;
grant execute on function private.caller_session_is_active() to authenticated;
grant execute on function private.caller_account() to authenticated;
grant execute on function private.caller_mfa_factors() to authenticated;
