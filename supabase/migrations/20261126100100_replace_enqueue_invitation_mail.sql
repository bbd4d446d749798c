-- An invitation's mail is queued already claimed by the request that queues it (docs/decisions/0014,
-- 0016): that request sends it right after its transaction commits, without a claim of its own in
-- between, so its first attempt is counted here and the row is due for anyone else only after the
-- back-off of a first claim (one minute, as claimMail's `power(4, 0)` minutes). If the request dies
-- before sending, any later sender sends it then. Otherwise as before: the caller can queue mail only
-- for an invitation it created in this very transaction, and only to that invitation's address.
create or replace function private.enqueue_invitation_mail(invitation uuid, mail jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  address text;
  queued uuid;
begin
  select i.email into address from public.invitations i
    where i.id = invitation and i.invited_by = (select auth.uid()) and i.status = 'pending'
      and i.created_at = now();
  if address is null then
    raise exception 'no invitation of the caller created in this transaction' using errcode = 'P0001', hint = 'not_found';
  end if;
  insert into private.mail_outbox (invitation_id, mail, attempts, next_attempt_at)
    values (invitation, jsonb_build_object(
      'to', address, 'subject', mail ->> 'subject', 'text', mail ->> 'text', 'html', mail ->> 'html'),
      1, now() + interval '1 minute')
    returning id into queued;
  return queued;
end;
$$;
