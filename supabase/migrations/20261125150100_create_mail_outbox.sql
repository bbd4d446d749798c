-- Invitation mail leaves from an outbox (docs/decisions/0014): the API writes the mail in the same
-- transaction as its invitation and sends it only after that transaction committed, so no mail ever goes
-- out for an invitation that was rolled back. A mail not sent (the relay failed) is sent again later.
-- Private: no role but the service (and the security definer function below) reads or writes it.
create table private.mail_outbox (
  id uuid primary key default gen_random_uuid(),
  invitation_id uuid not null unique references public.invitations (id) on delete cascade,
  -- { to, subject, text, html }. It holds the invitation's link, a secret: null once sent, so the secret
  -- rests in the database only until the relay has it.
  mail jsonb check (mail is null or jsonb_typeof(mail) = 'object'),
  attempts integer not null default 0,
  -- When it may be tried (again); a sender claims a row by moving this past its attempt.
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
create index mail_outbox_unsent_idx on private.mail_outbox (next_attempt_at) where sent_at is null;
alter table private.mail_outbox enable row level security;
revoke all on private.mail_outbox from public, anon, authenticated;

-- Puts the mail of an invitation the caller created in this very transaction into the outbox; its id.
-- The recipient is the invitation's address, whatever `mail` says. Raises not_found for any other
-- invitation, so the caller can mail nobody but the people it has just invited.
-- The mail is queued already claimed by the request that queues it (docs/decisions/0014, 0016): that
-- request sends it right after its transaction commits, without a claim of its own in between, so its
-- first attempt is counted here and the row is due for anyone else only after the back-off of a first
-- claim (one minute, as claimMail's `power(4, 0)` minutes). If the request dies before sending, any later
-- sender sends it then.
create function private.enqueue_invitation_mail(invitation uuid, mail jsonb)
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
revoke all on function private.enqueue_invitation_mail(uuid, jsonb) from public, anon;
grant execute on function private.enqueue_invitation_mail(uuid, jsonb) to authenticated;
