-- What the API may know about the caller's own Supabase Auth records. The `auth` tables belong to GoTrue
-- and stay closed to `authenticated`; these security definer functions each answer one question about
-- the caller only (the user named by the request's JWT claims), never about anyone else. (The API checks
-- a session as the service, in _shared/auth/sessions.queries.ts, not through a function here.)

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

-- Whether the caller has a verified MFA factor: such a person creates API tokens from an aal2 session only.
create function private.caller_has_verified_factor()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.mfa_factors as factor
    where factor.user_id = auth.uid() and factor.status = 'verified'
  )
$$;

revoke all on function private.caller_account() from public;
revoke all on function private.caller_mfa_factors() from public;
revoke all on function private.caller_has_verified_factor() from public;
grant execute on function private.caller_account() to authenticated;
grant execute on function private.caller_mfa_factors() to authenticated;
grant execute on function private.caller_has_verified_factor() to authenticated;
