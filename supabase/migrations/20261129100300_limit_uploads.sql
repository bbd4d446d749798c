-- Issue 23, item 4: storage had no ceiling, and an upload URL outlived its pending row. A workspace's
-- attachments may now take WORKSPACE_STORAGE_BYTES (1 GiB) in Storage, counting every object in its folder
-- (those no attachment names any more too, until they are removed: a PUT after a refusal leaves one) and
-- what its pending uploads declared; a person may have PENDING_UPLOADS_PER_USER (20) uploads pending. An
-- upload stays pending for longer than its upload URL lives (hosted Storage signs them for two hours and the
-- API cannot choose), so that whatever is uploaded while the URL works is counted and can be completed.
-- (supabase/functions/_shared/limits.ts holds the same numbers; docs/decisions/0024.)

-- How long an upload stays pending: SIGNED_UPLOAD_URL_LIFETIME_SECONDS and five minutes, for the moment
-- between the upload's declaration and the signature of its URL (PENDING_UPLOAD_LIFETIME_SECONDS).
create function private.pending_upload_window()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '2 hours 5 minutes';
$$;
revoke all on function private.pending_upload_window() from public;
grant execute on function private.pending_upload_window() to authenticated;

-- A pending attachment stops counting, and is swept, once its window is over.
create or replace function private.attachment_upload_expired(attachment public.attachments)
returns boolean
language sql
stable
set search_path = ''
as $$
  select attachment.status = 'pending' and attachment.created_at < now() - private.pending_upload_window();
$$;

-- The bytes a workspace's attachments take: every object in its folder of the `attachments` bucket, as
-- Storage recorded it, whether or not an attachment names it, and the declared size of each pending upload
-- whose object is not there yet. The folder is read as a range of names (`~>=~`, `~<~`: byte order, as the
-- index `name_prefix_search` that Storage keeps on storage.objects sorts them; '0' follows '/').
create function private.workspace_storage_bytes(workspace uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select sum(coalesce((o.metadata ->> 'size')::bigint, (o.metadata ->> 'contentLength')::bigint, 0))
    from storage.objects o
    where o.bucket_id = 'attachments'
      and o.name operator(pg_catalog.~>=~) (workspace::text || '/')
      and o.name operator(pg_catalog.~<~) (workspace::text || '0')
  ), 0)::bigint + coalesce((
    select sum(a.size_bytes) from public.attachments a
    where a.workspace_id = workspace and a.status = 'pending' and not private.attachment_upload_expired(a)
      and not exists (
        select 1 from storage.objects o where o.bucket_id = 'attachments' and o.name = a.object_path
      )
  ), 0)::bigint;
$$;
revoke all on function private.workspace_storage_bytes(uuid) from public;

-- Starts an attachment for the caller: an editor of the task's workspace, while the task's project is
-- active, with fewer than 20 attachments on the task (ready ones, and pending ones not yet expired), fewer
-- than 20 uploads of their own pending, and room for `size` bytes in the workspace's storage. Each count is
-- made under a lock of what it counts for (the task's row, the caller's profile, the workspace's row), so
-- that concurrent declarations cannot pass a limit together. Raises P0001 with the API's code as the hint:
-- not_found, forbidden, project_archived, limit_reached (its detail names the limit: attachments_per_task,
-- pending_uploads_per_user, workspace_storage_bytes).
create or replace function private.create_attachment(task uuid, name text, type text, size bigint)
returns public.attachments
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  task_workspace uuid;
  project_archived_at timestamptz;
  new_id uuid := gen_random_uuid();
  created public.attachments;
begin
  select t.workspace_id, p.archived_at into task_workspace, project_archived_at
    from public.tasks t join public.projects p on p.id = t.project_id
    where t.id = task
    for no key update of t;
  perform private.require_attachment_workspace(task_workspace);
  if not private.can_edit(task_workspace) then
    raise exception 'may not attach files' using errcode = 'P0001', hint = 'forbidden';
  end if;
  if project_archived_at is not null then
    raise exception 'the project is archived' using errcode = 'P0001', hint = 'project_archived';
  end if;
  if (
    select count(*) from public.attachments a
    where a.task_id = task and not private.attachment_upload_expired(a)
  ) >= 20 then
    raise exception 'attachment limit reached' using errcode = 'P0001', hint = 'limit_reached',
      detail = 'attachments_per_task';
  end if;
  perform 1 from public.profiles p where p.user_id = me for no key update;
  if (
    select count(*) from public.attachments a
    where a.uploaded_by = me and a.status = 'pending' and not private.attachment_upload_expired(a)
  ) >= 20 then
    raise exception 'pending upload limit reached' using errcode = 'P0001', hint = 'limit_reached',
      detail = 'pending_uploads_per_user';
  end if;
  perform 1 from public.workspaces w where w.id = task_workspace for no key update;
  if private.workspace_storage_bytes(task_workspace) + size > 1073741824 then
    raise exception 'workspace storage quota reached' using errcode = 'P0001', hint = 'limit_reached',
      detail = 'workspace_storage_bytes';
  end if;
  insert into public.attachments
    (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, uploaded_by)
  values (
    new_id, task_workspace, task, task_workspace::text || '/' || task::text || '/' || new_id::text,
    name, type, size, me
  )
  returning * into created;
  return created;
end;
$$;

-- As in 20261129100100_check_uploaded_types.sql, with the pending window.
create or replace function private.caller_avatar_upload()
returns table (object_path text, content_type text, size_bytes bigint, uploaded_size bigint, uploaded_type text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.object_path, u.content_type, u.size_bytes, private.uploaded_object_size('avatars', u.object_path),
    private.uploaded_object_type('avatars', u.object_path)
  from private.avatar_uploads u
  where u.user_id = (select auth.uid()) and u.created_at >= now() - private.pending_upload_window();
$$;

-- As in 20261129100100_check_uploaded_types.sql, with the pending window.
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
    where u.user_id = me and u.created_at >= now() - private.pending_upload_window()
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
