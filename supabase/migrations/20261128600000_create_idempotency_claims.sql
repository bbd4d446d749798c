-- An Idempotency-Key is claimed by the service, autocommitted, in the round trip that checks the
-- credential (docs/decisions/0016), instead of by an advisory lock inside the request's transaction,
-- which the work had to wait for. A claim says "a request with this key is running": another one is
-- answered `409 idempotency_key_in_use`. The request that holds it releases it when its answer is not
-- recorded; a recorded one leaves it, and the record, which is looked up first, answers from then on
-- (once the record has expired, the claim beside it is known to be done).
-- A claim older than `stale_after_seconds` is one whose request died: it no longer holds the key.
-- Whatever a claim misses, the record's unique (user_id, principal, key) still allows one effect only.
create table private.idempotency_claims (
  principal text not null,
  key text not null,
  claimed_at timestamptz not null default now(),
  primary key (principal, key)
);

create index idempotency_claims_claimed_at_idx on private.idempotency_claims (claimed_at);

alter table private.idempotency_claims enable row level security;
revoke all on private.idempotency_claims from public, anon, authenticated;

-- Claims (principal, key) for `claimant`, the user the principal belongs to. Answers one row: the key's
-- unexpired record if it has one (`claimed` false, the record's hash and answer), else whether the claim
-- was taken (`claimed` false and no record: another request holds it). Taking it deletes the key's
-- expired record, so that it can be recorded anew, and sweeps a batch of anyone's stale claims.
create function private.claim_idempotency_key(
  claimant uuid,
  principal text,
  key text,
  stale_after_seconds integer
)
returns table (claimed boolean, request_hash text, response jsonb)
language plpgsql
volatile
set search_path = ''
as $$
declare
  stale_before timestamptz := now() - make_interval(secs => stale_after_seconds);
begin
  select record.request_hash, record.response into request_hash, response
  from public.idempotency_keys as record
  where record.user_id = claimant
    and record.principal = claim_idempotency_key.principal
    and record.key = claim_idempotency_key.key
    and record.expires_at > now();
  if found then
    claimed := false;
    return next;
    return;
  end if;

  -- A claim beside an expired record is its recorded request's (a claim takes the expired record away).
  delete from private.idempotency_claims as claim
  where claim.principal = claim_idempotency_key.principal
    and claim.key = claim_idempotency_key.key
    and (
      claim.claimed_at < stale_before
      or exists (
        select from public.idempotency_keys as record
        where record.user_id = claimant
          and record.principal = claim_idempotency_key.principal
          and record.key = claim_idempotency_key.key
      )
    );
  insert into private.idempotency_claims (principal, key)
  values (claim_idempotency_key.principal, claim_idempotency_key.key)
  on conflict do nothing;
  if not found then
    claimed := false;
    return next;
    return;
  end if;

  -- A request with this key that recorded and committed while this statement started: visible now.
  select record.request_hash, record.response into request_hash, response
  from public.idempotency_keys as record
  where record.user_id = claimant
    and record.principal = claim_idempotency_key.principal
    and record.key = claim_idempotency_key.key
    and record.expires_at > now();
  if found then
    delete from private.idempotency_claims as claim
    where claim.principal = claim_idempotency_key.principal and claim.key = claim_idempotency_key.key;
    claimed := false;
    return next;
    return;
  end if;

  delete from public.idempotency_keys as record
  where record.user_id = claimant
    and record.principal = claim_idempotency_key.principal
    and record.key = claim_idempotency_key.key
    and record.expires_at <= now();
  delete from private.idempotency_claims as claim
  where (claim.principal, claim.key) in (
    select stale.principal, stale.key from private.idempotency_claims as stale
    where stale.claimed_at < stale_before
    order by stale.claimed_at
    limit 100
    for update skip locked
  );
  claimed := true;
  request_hash := null;
  response := null;
  return next;
end
$$;

-- Releases a claim whose request's answer was not recorded, so that a retry runs again.
create function private.release_idempotency_claim(principal text, key text)
returns void
language sql
volatile
set search_path = ''
as $$
  delete from private.idempotency_claims as claim
  where claim.principal = release_idempotency_claim.principal and claim.key = release_idempotency_claim.key
$$;

revoke all on function private.claim_idempotency_key(uuid, text, text, integer) from public;
revoke all on function private.release_idempotency_claim(text, text) from public;
