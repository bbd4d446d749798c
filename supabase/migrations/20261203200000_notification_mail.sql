-- Issue 26: notifications by e-mail (docs/notifications.md, docs/decisions/0048-notification-mail.md).
-- A notification written with `email_delivery` (the person's setting for its type when it was written)
-- is mailed once: `now` ones batched per person, once the oldest has waited two minutes; `digest` ones
-- in one daily mail at 08:00 in the person's time zone. The sender (the API's
-- POST /v1/internal/notification-mail, run every minute by pg_cron on hosted and by the stand-in's
-- scheduler locally) reads who is due with private.notification_mail_due, writes each mail, and puts it in
-- the mail outbox with private.enqueue_notification_mail, which marks what it tells of as mailed in the
-- same statement; the outbox then sends it at least once, as it sends invitations (decision 0014).

-- The outbox holds a person's notification mail as well as invitations: exactly one of the two.
alter table private.mail_outbox alter column invitation_id drop not null;
alter table private.mail_outbox add column user_id uuid references auth.users (id) on delete cascade;
alter table private.mail_outbox add constraint mail_outbox_one_recipient
  check ((invitation_id is null) <> (user_id is null));
create index mail_outbox_user_id_idx on private.mail_outbox (user_id) where user_id is not null;

-- The key that signs unsubscribe links (HMAC-SHA256, computed by the API): made here, once, from two
-- random UUIDs (gen_random_uuid draws from the server's strong random source), and never leaving the
-- database except to the service.
create table private.signing_keys (
  purpose text primary key,
  key bytea not null check (octet_length(key) = 32),
  created_at timestamptz not null default now()
);
alter table private.signing_keys enable row level security;
revoke all on private.signing_keys from public, anon, authenticated;
insert into private.signing_keys (purpose, key)
  values ('unsubscribe', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));

-- `body` with each mention written as `@` and the member's name; a uuid that names no member of
-- `workspace` becomes "@former member", revealing nothing of whoever it is.
create function private.mentions_named(body text, workspace uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  named text := body;
  mention record;
begin
  for mention in
    select m.id, coalesce(p.display_name, 'former member') as name
    from unnest(private.mentioned_user_ids(body)) as m (id)
    left join public.memberships ms on ms.workspace_id = workspace and ms.user_id = m.id
    left join public.profiles p on p.user_id = ms.user_id
  loop
    named := regexp_replace(named, '<@' || mention.id::text || '>', '@' || replace(mention.name, '\', '\\'), 'gi');
  end loop;
  return named;
end;
$$;
revoke all on function private.mentions_named(text, uuid) from public;

-- The people due a mail now, at most `max_people`, each with the ids of the notifications it settles and
-- the items it tells of (those still unread and not archived: what was seen in the app is not mailed).
--   at once: every unmailed `now` notification of a person whose oldest one last changed (written, or
--            folded into) `batch_window` ago;
--   digest:  every unmailed `digest` notification last changed before today's `digest_hour` o'clock in the
--            person's time zone, once that hour has come.
create function private.notification_mail_due(
  batch_window interval default interval '2 minutes',
  digest_hour integer default 8,
  max_people integer default 100
)
returns table (user_id uuid, email text, digest boolean, notification_ids uuid[], items jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  with unmailed as (
    select n.*, n.email_delivery = 'digest' as is_digest,
      min(n.updated_at) filter (where n.email_delivery = 'now') over (partition by n.user_id) as oldest_now,
      (date_trunc('day', now() at time zone coalesce(p.time_zone, 'UTC')) + make_interval(hours => digest_hour))
        at time zone coalesce(p.time_zone, 'UTC') as digest_at
    from public.notifications n
    left join public.profiles p on p.user_id = n.user_id
    where n.email_delivery is not null and n.emailed_at is null
  ),
  due as (
    select u.* from unmailed u
    where (not u.is_digest and u.oldest_now <= now() - batch_window)
       or (u.is_digest and u.digest_at <= now() and u.updated_at < u.digest_at)
  ),
  people as (
    select d.user_id, d.is_digest from due d group by d.user_id, d.is_digest
    order by min(d.updated_at) limit max_people
  )
  select d.user_id, a.email, d.is_digest, array_agg(d.id order by d.created_at),
    coalesce(jsonb_agg(jsonb_build_object(
        'type', d.type,
        'workspace_name', w.name,
        'workspace_slug', w.slug,
        'project_key', pr.key,
        'task_number', t.number,
        'task_title', t.title,
        'actor_name', ac.display_name,
        'comment_id', d.comment_id,
        'comment_body', private.mentions_named(c.body, d.workspace_id),
        'change_count', d.change_count,
        'due_date', d.due_date
      ) order by d.created_at) filter (where d.read_at is null and d.archived_at is null), '[]'::jsonb)
  from due d
  join people pe on pe.user_id = d.user_id and pe.is_digest = d.is_digest
  join auth.users a on a.id = d.user_id
  join public.workspaces w on w.id = d.workspace_id
  left join public.tasks t on t.id = d.task_id
  left join public.projects pr on pr.id = t.project_id
  left join public.profiles ac on ac.user_id = d.actor_id
  left join public.comments c on c.id = d.comment_id
  where a.email is not null
  group by d.user_id, a.email, d.is_digest;
$$;
revoke all on function private.notification_mail_due(interval, integer, integer) from public;

-- Marks `notification_ids` of `person` mailed, those not marked yet, and queues `mail` for them if it
-- marked any and `mail` is not null (null: all of them were read meanwhile); the outbox row's id, or
-- null. A second sender that read the same people finds them marked and queues nothing.
create function private.enqueue_notification_mail(person uuid, notification_ids uuid[], mail jsonb)
returns uuid
language sql
volatile
security definer
set search_path = ''
as $$
  with marked as (
    update public.notifications n set emailed_at = now()
    where n.id = any (notification_ids) and n.user_id = person and n.emailed_at is null
    returning 1
  ),
  queued as (
    insert into private.mail_outbox (user_id, mail)
    select person, mail where mail is not null and exists (select 1 from marked)
    returning id
  )
  select id from queued;
$$;
revoke all on function private.enqueue_notification_mail(uuid, uuid[], jsonb) from public;

create function private.unsubscribe_signing_key()
returns bytea
language sql
stable
security definer
set search_path = ''
as $$
  select k.key from private.signing_keys k where k.purpose = 'unsubscribe';
$$;
revoke all on function private.unsubscribe_signing_key() from public;

-- One click on a mail's unsubscribe link: the person gets no more mail of `types` (the inbox still tells
-- them); a type they had turned off stays off. Their deliveries of `types` afterwards.
create function private.unsubscribe_from_mail(person uuid, types text[])
returns table (type text, delivery text)
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.notification_settings as s (user_id, type, delivery)
    select person, t, 'inbox' from unnest(types) t
    where t = any (private.notification_types())
      and exists (select 1 from auth.users u where u.id = person)
  on conflict (user_id, type) do update set delivery = 'inbox', updated_at = now()
    where s.delivery in ('email_now', 'email_digest')
  returning s.type, s.delivery;
$$;
revoke all on function private.unsubscribe_from_mail(uuid, text[]) from public;
