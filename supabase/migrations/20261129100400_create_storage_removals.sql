-- Issue 23, item 4: a deleted task's files stayed in Storage (readable, until 20261129100200) until an
-- upload happened to run the sweep, and a removal that failed was tried again only by that same sweep.
-- Objects that stop being used are now queued for removal in the transaction that stops using them, by
-- triggers, so a task, project or workspace deleted by any path (foreign keys cascade into attachments)
-- queues its files: the API removes them through Storage, which alone may delete objects, after the
-- request's answer, and retries what failed (docs/decisions/0024).

-- Objects to remove from Storage, at least once. Private: only the service reads or writes it (the
-- triggers below, as security definer). A remover claims a row by counting an attempt and moving its next
-- attempt past a back-off, so two removers never claim it at once; it deletes the row once Storage removed
-- the object, and a row whose removal failed is due again later.
create table private.storage_removals (
  id bigint generated always as identity primary key,
  bucket_id text not null,
  object_path text not null,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  unique (bucket_id, object_path)
);
create index storage_removals_next_attempt_at_idx on private.storage_removals (next_attempt_at);
alter table private.storage_removals enable row level security;
revoke all on private.storage_removals from public, anon, authenticated;

-- Queues an object's removal, once.
create function private.queue_storage_removal(bucket text, path text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into private.storage_removals (bucket_id, object_path) values (bucket, path)
  on conflict (bucket_id, object_path) do nothing;
$$;
revoke all on function private.queue_storage_removal(text, text) from public;

-- An attachment deleted in any way (by its uploader, with its task, project or workspace, by the sweep)
-- queues its object, uploaded or not.
create function private.queue_attachment_object_removal()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_storage_removal('attachments', old.object_path);
  return null;
end;
$$;
revoke all on function private.queue_attachment_object_removal() from public;
create trigger attachments_queue_object_removal after delete on public.attachments
  for each row execute function private.queue_attachment_object_removal();

-- A profile's avatar replaced or removed, or the profile gone with its account, queues the old picture.
create function private.queue_replaced_avatar_removal()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.avatar_path is not null and (tg_op = 'DELETE' or new.avatar_path is distinct from old.avatar_path) then
    perform private.queue_storage_removal('avatars', old.avatar_path);
  end if;
  return null;
end;
$$;
revoke all on function private.queue_replaced_avatar_removal() from public;
create trigger profiles_queue_avatar_removal after update of avatar_path or delete on public.profiles
  for each row execute function private.queue_replaced_avatar_removal();

-- An avatar upload replaced by the next one, forgotten by the sweep or gone with its account queues its
-- object, unless it became the avatar (complete_avatar_upload sets the avatar, then forgets the upload).
create function private.queue_avatar_upload_removal()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (tg_op = 'DELETE' or new.object_path is distinct from old.object_path)
    and not exists (select 1 from public.profiles p where p.avatar_path = old.object_path) then
    perform private.queue_storage_removal('avatars', old.object_path);
  end if;
  return null;
end;
$$;
revoke all on function private.queue_avatar_upload_removal() from public;
create trigger avatar_uploads_queue_object_removal after update of object_path or delete
  on private.avatar_uploads
  for each row execute function private.queue_avatar_upload_removal();

-- The sweep (docs/decisions/0024), now a producer of the queue: deletes pending attachments whose window
-- is over (the trigger queues their objects) and queues the objects in the bucket that no attachment names
-- and that are older than an hour (a PUT to an upload URL after its attachment went, a removal lost before
-- the queue existed). Answers how many it queued; the API then drains the queue. Run as the service.
drop function private.sweep_attachment_uploads(integer);
create function private.sweep_attachment_uploads(max_rows integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  expired integer;
  orphans integer;
begin
  delete from public.attachments a
  where a.id in (
    select x.id from public.attachments x
    where x.status = 'pending' and x.created_at < now() - private.pending_upload_window()
    order by x.created_at
    limit max_rows
  );
  get diagnostics expired = row_count;
  insert into private.storage_removals (bucket_id, object_path)
  select 'attachments', o.name from storage.objects o
  where o.bucket_id = 'attachments' and o.created_at < now() - interval '1 hour'
    and not exists (select 1 from public.attachments a where a.object_path = o.name)
    and not exists (
      select 1 from private.storage_removals r where r.bucket_id = 'attachments' and r.object_path = o.name
    )
  order by o.created_at
  limit max_rows
  on conflict (bucket_id, object_path) do nothing;
  get diagnostics orphans = row_count;
  return expired + orphans;
end;
$$;
revoke all on function private.sweep_attachment_uploads(integer) from public;

-- The same for avatars: forgets uploads whose window is over (the trigger queues their objects) and queues
-- the avatar objects older than an hour that are neither a profile's avatar nor an upload under way.
drop function private.sweep_avatar_uploads(integer);
create function private.sweep_avatar_uploads(max_rows integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  forgotten integer;
  orphans integer;
begin
  delete from private.avatar_uploads u where u.created_at < now() - private.pending_upload_window();
  get diagnostics forgotten = row_count;
  insert into private.storage_removals (bucket_id, object_path)
  select 'avatars', o.name from storage.objects o
  where o.bucket_id = 'avatars' and o.created_at < now() - interval '1 hour'
    and not exists (select 1 from public.profiles p where p.avatar_path = o.name)
    and not exists (select 1 from private.avatar_uploads u where u.object_path = o.name)
    and not exists (
      select 1 from private.storage_removals r where r.bucket_id = 'avatars' and r.object_path = o.name
    )
  order by o.created_at
  limit max_rows
  on conflict (bucket_id, object_path) do nothing;
  get diagnostics orphans = row_count;
  return forgotten + orphans;
end;
$$;
revoke all on function private.sweep_avatar_uploads(integer) from public;
