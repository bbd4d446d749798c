-- Avatars (SPEC §3, §5): a profile's picture, an object of the private Storage bucket `avatars` at
-- `<user id>/<upload id>`, named by the profile's `avatar_path`. The API issues a signed upload URL
-- (POST /v1/me/avatar), checks the uploaded object, then makes it the avatar (POST /v1/me/avatar/complete);
-- people see avatars through short-lived signed URLs the API hands out with profiles and members
-- (docs/decisions/0024).

-- Until now `authenticated` could set avatar_path through the Data API to any path at all; only the API's
-- avatar completion sets it now (private.complete_avatar_upload).
revoke update (avatar_path) on table public.profiles from authenticated;

-- The upload each person has under way: at most one, replaced by the next request. Private: no API role
-- reads or writes it but through the functions below.
create table private.avatar_uploads (
  user_id uuid primary key references auth.users (id) on delete cascade,
  object_path text not null unique,
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  size_bytes bigint not null check (size_bytes between 1 and 2097152),
  created_at timestamptz not null default now()
);
create index avatar_uploads_created_at_idx on private.avatar_uploads (created_at);

-- Starts the caller's avatar upload, replacing one under way (its object, if any, is swept later), and
-- answers it.
create function private.begin_avatar_upload(type text, size bigint)
returns private.avatar_uploads
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  started private.avatar_uploads;
begin
  if me is null then
    raise exception 'no caller' using errcode = 'P0001', hint = 'unauthenticated';
  end if;
  insert into private.avatar_uploads as u (user_id, object_path, content_type, size_bytes)
  values (me, me::text || '/' || gen_random_uuid()::text, type, size)
  on conflict (user_id) do update set
    object_path = excluded.object_path,
    content_type = excluded.content_type,
    size_bytes = excluded.size_bytes,
    created_at = now()
  returning * into started;
  return started;
end;
$$;
revoke all on function private.begin_avatar_upload(text, bigint) from public;
grant execute on function private.begin_avatar_upload(text, bigint) to authenticated;

-- The caller's upload under way, with the size of its object in Storage (null while nothing is uploaded).
create function private.caller_avatar_upload()
returns table (object_path text, content_type text, size_bytes bigint, uploaded_size bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select u.object_path, u.content_type, u.size_bytes, private.uploaded_object_size('avatars', u.object_path)
  from private.avatar_uploads u
  where u.user_id = (select auth.uid()) and u.created_at >= now() - interval '1 hour';
$$;
revoke all on function private.caller_avatar_upload() from public;
grant execute on function private.caller_avatar_upload() to authenticated;

-- Makes the caller's uploaded object their avatar (the API has checked its first bytes), bumping the
-- profile's version, and answers the avatar it replaced, whose object the API then removes. Hints:
-- not_found (no upload under way), upload_incomplete, validation_failed (the size differs).
create function private.complete_avatar_upload()
returns table (avatar_path text, previous_path text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  upload private.avatar_uploads;
  uploaded_size bigint;
  previous text;
begin
  select * into upload from private.avatar_uploads u
    where u.user_id = me and u.created_at >= now() - interval '1 hour'
    for update;
  if upload.user_id is null then
    raise exception 'no avatar upload under way' using errcode = 'P0001', hint = 'not_found';
  end if;
  uploaded_size := private.uploaded_object_size('avatars', upload.object_path);
  if uploaded_size is null then
    raise exception 'nothing uploaded yet' using errcode = 'P0001', hint = 'upload_incomplete';
  end if;
  if uploaded_size <> upload.size_bytes then
    raise exception 'the uploaded size differs' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  select p.avatar_path into previous from public.profiles p where p.user_id = me for update;
  update public.profiles p set avatar_path = upload.object_path where p.user_id = me;
  delete from private.avatar_uploads u where u.user_id = me;
  return query select upload.object_path, previous;
end;
$$;
revoke all on function private.complete_avatar_upload() from public;
grant execute on function private.complete_avatar_upload() to authenticated;

-- Removes the caller's avatar (bumping the profile's version when there was one) and answers its path,
-- whose object the API then removes; null when there was none.
create function private.remove_avatar()
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  previous text;
begin
  select p.avatar_path into previous from public.profiles p where p.user_id = me for update;
  if previous is not null then
    update public.profiles p set avatar_path = null where p.user_id = me;
  end if;
  return previous;
end;
$$;
revoke all on function private.remove_avatar() from public;
grant execute on function private.remove_avatar() to authenticated;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', false, 2097152, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- A person may read their own avatar objects; everyone else sees an avatar only through a signed URL the
-- API hands out with a profile or member, which it answers only to people who share a workspace with its
-- owner. No insert, update or delete policy: uploads go to signed upload URLs.
create policy "People can read their own avatar objects" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- The sweep (docs/decisions/0024): forgets uploads under way for over an hour and answers the paths of
-- avatar objects older than an hour that are neither a profile's avatar nor an upload under way (replaced
-- or removed avatars, abandoned uploads, removals that failed). The caller removes them through Storage.
create function private.sweep_avatar_uploads(max_rows integer)
returns table (object_path text)
language sql
volatile
security definer
set search_path = ''
as $$
  with forgotten as (
    delete from private.avatar_uploads u where u.created_at < now() - interval '1 hour' returning u.object_path
  )
  select o.name from storage.objects o
  where o.bucket_id = 'avatars' and o.created_at < now() - interval '1 hour'
    and not exists (select 1 from public.profiles p where p.avatar_path = o.name)
    and not exists (
      select 1 from private.avatar_uploads u
      where u.object_path = o.name and u.object_path not in (select f.object_path from forgotten f)
    )
  order by o.created_at
  limit max_rows;
$$;
revoke all on function private.sweep_avatar_uploads(integer) from public;
