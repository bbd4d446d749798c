-- Issue 23, item 1: completion checked an upload's size and first bytes, never the type Storage keeps it
-- under, which is the Content-Type of the PUT and the type Storage serves it with. A file declared
-- image/gif but PUT as `image/gif/,text/html` (which passes hosted Storage's type check: it compares only
-- the first two `/`-separated parts) became ready and was served as HTML on Storage's origin. Completion now
-- requires the stored type to be exactly the declared one, which is one of a fixed list with no active
-- content (docs/decisions/0031); otherwise it refuses with the hint unsupported_media_type, and the API
-- removes the upload.

-- The type Storage keeps the object under (its metadata's mimetype, the Content-Type it was uploaded
-- with), null while nothing is uploaded. Security definer: the caller need not see the object.
create function private.uploaded_object_type(bucket text, path text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.metadata ->> 'mimetype' from storage.objects o where o.bucket_id = bucket and o.name = path;
$$;
revoke all on function private.uploaded_object_type(text, text) from public;
grant execute on function private.uploaded_object_type(text, text) to authenticated;

-- Marks the caller's pending attachment ready once its object is in Storage with the declared size and
-- exactly the declared type (the API has checked its first bytes against that type before calling this).
-- Only its uploader, still an editor, completes it; a ready one is answered as it is. Hints: not_found,
-- forbidden, project_archived, upload_incomplete, validation_failed (the size differs),
-- unsupported_media_type (the stored type differs).
create or replace function private.complete_attachment(attachment uuid)
returns public.attachments
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.attachments;
  project_archived_at timestamptz;
  uploaded_size bigint;
begin
  select * into target from public.attachments a where a.id = attachment for update;
  perform private.require_attachment_workspace(target.workspace_id);
  if target.status = 'ready' then
    return target;
  end if;
  if private.attachment_upload_expired(target) then
    raise exception 'no such attachment' using errcode = 'P0001', hint = 'not_found';
  end if;
  if target.uploaded_by is distinct from (select auth.uid()) or not private.can_edit(target.workspace_id) then
    raise exception 'may not complete this upload' using errcode = 'P0001', hint = 'forbidden';
  end if;
  select p.archived_at into project_archived_at
    from public.tasks t join public.projects p on p.id = t.project_id where t.id = target.task_id;
  if project_archived_at is not null then
    raise exception 'the project is archived' using errcode = 'P0001', hint = 'project_archived';
  end if;
  uploaded_size := private.uploaded_object_size('attachments', target.object_path);
  if uploaded_size is null then
    raise exception 'nothing uploaded yet' using errcode = 'P0001', hint = 'upload_incomplete';
  end if;
  if uploaded_size <> target.size_bytes then
    raise exception 'the uploaded size differs' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  if private.uploaded_object_type('attachments', target.object_path) is distinct from target.content_type then
    raise exception 'the uploaded type differs' using errcode = 'P0001', hint = 'unsupported_media_type';
  end if;
  update public.attachments a set status = 'ready', ready_at = now() where a.id = attachment
    returning * into target;
  return target;
end;
$$;

-- The caller's upload under way, with the size and type of its object in Storage (null while nothing is
-- uploaded).
drop function private.caller_avatar_upload();
create function private.caller_avatar_upload()
returns table (object_path text, content_type text, size_bytes bigint, uploaded_size bigint, uploaded_type text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.object_path, u.content_type, u.size_bytes, private.uploaded_object_size('avatars', u.object_path),
    private.uploaded_object_type('avatars', u.object_path)
  from private.avatar_uploads u
  where u.user_id = (select auth.uid()) and u.created_at >= now() - interval '1 hour';
$$;
revoke all on function private.caller_avatar_upload() from public;
grant execute on function private.caller_avatar_upload() to authenticated;

-- As in 20261129100000_complete_checked_avatar_upload.sql, and the stored type must be exactly the declared
-- one. Hints: not_found, upload_incomplete (detail upload_replaced: another upload was started since the
-- check), validation_failed (the size differs), unsupported_media_type (the stored type differs).
create or replace function private.complete_avatar_upload(checked_path text)
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
  if upload.object_path is distinct from checked_path then
    raise exception 'another avatar upload was started since the check' using errcode = 'P0001',
      hint = 'upload_incomplete', detail = 'upload_replaced';
  end if;
  uploaded_size := private.uploaded_object_size('avatars', upload.object_path);
  if uploaded_size is null then
    raise exception 'nothing uploaded yet' using errcode = 'P0001', hint = 'upload_incomplete';
  end if;
  if uploaded_size <> upload.size_bytes then
    raise exception 'the uploaded size differs' using errcode = 'P0001', hint = 'validation_failed';
  end if;
  if private.uploaded_object_type('avatars', upload.object_path) is distinct from upload.content_type then
    raise exception 'the uploaded type differs' using errcode = 'P0001', hint = 'unsupported_media_type';
  end if;
  select p.avatar_path into previous from public.profiles p where p.user_id = me for update;
  update public.profiles p set avatar_path = upload.object_path where p.user_id = me;
  delete from private.avatar_uploads u where u.user_id = me;
  return query select upload.object_path, previous;
end;
$$;
