-- Attachments (SPEC §3, §4, §5, §6): files on a task. The row is the attachment; its bytes are an object
-- of the private Storage bucket `attachments`, at `<workspace id>/<task id>/<attachment id>` (made here,
-- never from the file's name). An attachment is `pending` from the moment the API issues its signed upload
-- URL until the API has checked the uploaded object (size, and first bytes against the declared type) and
-- marked it `ready`; pending ones older than an hour are swept away with their objects
-- (docs/decisions/0024). Members read them; editors attach files; their uploader or an admin deletes them.
--
-- Nobody writes the table directly, not even through the Data API: the API writes through the security
-- definer functions below, which hold every rule (roles, the archived project, 20 per task). Nobody writes
-- storage.objects directly either: uploads go to signed upload URLs the API issues, run by Storage itself.

create table public.attachments (
  id uuid primary key,
  -- Copied from the task: RLS and the Storage policy read it without a join.
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  task_id uuid not null references public.tasks (id) on delete cascade,
  object_path text not null unique,
  file_name text not null check (
    char_length(file_name) between 1 and 255 and file_name !~ '[/\\[:cntrl:]]' and btrim(file_name) <> ''
  ),
  content_type text not null check (
    content_type in (
      'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/markdown',
      'text/csv', 'application/json', 'application/zip'
    )
  ),
  size_bytes bigint not null check (size_bytes between 1 and 26214400),
  status text not null default 'pending' check (status in ('pending', 'ready')),
  uploaded_by uuid references auth.users (id) on delete set null,
  ready_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (object_path = workspace_id::text || '/' || task_id::text || '/' || id::text),
  check ((status = 'ready') = (ready_at is not null))
);
create index attachments_task_id_created_at_idx on public.attachments (task_id, created_at, id);
create index attachments_workspace_id_idx on public.attachments (workspace_id);
create index attachments_uploaded_by_idx on public.attachments (uploaded_by);
create index attachments_pending_created_at_idx on public.attachments (created_at) where status = 'pending';
create trigger attachments_bump_version before update on public.attachments
  for each row execute function private.bump_version();

alter table public.attachments enable row level security;
create policy "Members can read their workspaces' attachments" on public.attachments
  for select to authenticated using (workspace_id in (select private.caller_workspace_ids()));
create policy "Workspaces that require MFA admit aal2 only" on public.attachments
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
-- No insert, update or delete policy, and no such grant: the functions below are the only writers.
revoke all on table public.attachments from anon, authenticated;
grant select on public.attachments to authenticated;

-- An attachment as the API answers it, and as events carry it. The object's path stays inside.
create function private.attachment_json(attachment public.attachments)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'attachment',
    'id', attachment.id,
    'task_id', attachment.task_id,
    'file_name', attachment.file_name,
    'content_type', attachment.content_type,
    'size_bytes', attachment.size_bytes,
    'status', attachment.status,
    'uploaded_by', attachment.uploaded_by,
    'ready_at', private.iso_timestamp(attachment.ready_at),
    'version', attachment.version,
    'created_at', private.iso_timestamp(attachment.created_at),
    'updated_at', private.iso_timestamp(attachment.updated_at)
  );
$$;
revoke all on function private.attachment_json(public.attachments) from public;
grant execute on function private.attachment_json(public.attachments) to authenticated;

-- A pending attachment stops counting, and is swept, an hour after its upload URL was issued.
create function private.attachment_upload_expired(attachment public.attachments)
returns boolean
language sql
stable
set search_path = ''
as $$
  select attachment.status = 'pending' and attachment.created_at < now() - interval '1 hour';
$$;
revoke all on function private.attachment_upload_expired(public.attachments) from public;
grant execute on function private.attachment_upload_expired(public.attachments) to authenticated;

-- The caller's access, for the functions below: not_found unless the workspace is theirs (and admitted at
-- this session's aal), which is what RLS would hide.
create function private.require_attachment_workspace(workspace uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if workspace is null or not private.is_member(workspace) or (
    (select auth.jwt() ->> 'aal') is distinct from 'aal2' and workspace in (select private.caller_mfa_workspace_ids())
  ) then
    raise exception 'no such attachment or task' using errcode = 'P0001', hint = 'not_found';
  end if;
end;
$$;
revoke all on function private.require_attachment_workspace(uuid) from public;

-- Starts an attachment for the caller: an editor of the task's workspace, while the task's project is
-- active, with fewer than 20 attachments on the task (ready ones, and pending ones not yet expired),
-- counted under the task row's lock so that concurrent uploads cannot pass the limit. Raises P0001 with
-- the API's code as the hint: not_found, forbidden, project_archived, limit_reached.
create function private.create_attachment(task uuid, name text, type text, size bigint)
returns public.attachments
language plpgsql
security definer
set search_path = ''
as $$
declare
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
    raise exception 'attachment limit reached' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  insert into public.attachments
    (id, workspace_id, task_id, object_path, file_name, content_type, size_bytes, uploaded_by)
  values (
    new_id, task_workspace, task, task_workspace::text || '/' || task::text || '/' || new_id::text,
    name, type, size, (select auth.uid())
  )
  returning * into created;
  return created;
end;
$$;
revoke all on function private.create_attachment(uuid, text, text, bigint) from public;
grant execute on function private.create_attachment(uuid, text, text, bigint) to authenticated;

-- The size of the attachment's uploaded object as Storage recorded it, null while nothing is uploaded.
-- Security definer: the caller need not see the object (Storage's own tables are read here, never written).
create function private.uploaded_object_size(bucket text, path text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((o.metadata ->> 'size')::bigint, (o.metadata ->> 'contentLength')::bigint)
  from storage.objects o where o.bucket_id = bucket and o.name = path;
$$;
revoke all on function private.uploaded_object_size(text, text) from public;
grant execute on function private.uploaded_object_size(text, text) to authenticated;

-- Marks the caller's pending attachment ready once its object is in Storage with the declared size (the
-- API has checked its first bytes against the declared type before calling this). Only its uploader, still
-- an editor, completes it; a ready one is answered as it is. Hints: not_found, forbidden,
-- project_archived, upload_incomplete, validation_failed (the size differs).
create function private.complete_attachment(attachment uuid)
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
  update public.attachments a set status = 'ready', ready_at = now() where a.id = attachment
    returning * into target;
  return target;
end;
$$;
revoke all on function private.complete_attachment(uuid) from public;
grant execute on function private.complete_attachment(uuid) to authenticated;

-- Deletes an attachment for its uploader (still an editor) or an admin of its workspace, answering the
-- row as it was: the API then removes its object through Storage. A pending one may also be discarded by
-- its uploader this way (an upload refused at completion). Hints: not_found, forbidden, project_archived.
create function private.delete_attachment(attachment uuid)
returns public.attachments
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.attachments;
  project_archived_at timestamptz;
begin
  select * into target from public.attachments a where a.id = attachment for update;
  perform private.require_attachment_workspace(target.workspace_id);
  if not (
    private.is_admin(target.workspace_id)
    or (target.uploaded_by = (select auth.uid()) and private.can_edit(target.workspace_id))
  ) then
    raise exception 'may not delete this attachment' using errcode = 'P0001', hint = 'forbidden';
  end if;
  select p.archived_at into project_archived_at
    from public.tasks t join public.projects p on p.id = t.project_id where t.id = target.task_id;
  if project_archived_at is not null then
    raise exception 'the project is archived' using errcode = 'P0001', hint = 'project_archived';
  end if;
  delete from public.attachments a where a.id = attachment;
  return target;
end;
$$;
revoke all on function private.delete_attachment(uuid) from public;
grant execute on function private.delete_attachment(uuid) to authenticated;

-- The workspace of an attachment in one of the caller's workspaces, MFA ones included: what the API needs
-- at aal1 to answer `403 mfa_required` instead of `404`.
create function private.caller_workspace_of_attachment(attachment uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select a.workspace_id from public.attachments a
  where a.id = attachment and a.workspace_id in (select private.caller_workspace_ids());
$$;
revoke all on function private.caller_workspace_of_attachment(uuid) from public;
grant execute on function private.caller_workspace_of_attachment(uuid) to authenticated;

-- Events (the feed, activity, realtime, webhooks) through the event log's private.append_event: an
-- attachment is `attachment.added` when it becomes ready and `attachment.deleted` when a ready one is
-- deleted, unless its task went with it (the task's event says it). Pending ones tell nothing.
create function private.log_attachment_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid := (select t.project_id from public.tasks t where t.id = coalesce(new.task_id, old.task_id));
begin
  if tg_op = 'UPDATE' and old.status = 'pending' and new.status = 'ready' then
    perform private.append_event(
      new.workspace_id, project, new.task_id, 'attachment.added', private.attachment_json(new)
    );
  elsif tg_op = 'DELETE' and old.status = 'ready' and project is not null then
    perform private.append_event(
      old.workspace_id, project, old.task_id, 'attachment.deleted', private.attachment_json(old)
    );
  end if;
  return null;
end;
$$;
revoke all on function private.log_attachment_change() from public;

create trigger attachments_log_change after update of status or delete on public.attachments
  for each row execute function private.log_attachment_change();

-- The bucket, private, with SPEC §5's limits: Storage itself refuses a larger or other-typed upload.
-- Idempotent, so that a project whose bucket was made by hand ends up with these settings.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'attachments', 'attachments', false, 26214400,
  array[
    'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/markdown',
    'text/csv', 'application/json', 'application/zip'
  ]
)
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- Members may read (download, sign) the objects under their workspace's folder, at the aal their
-- workspace requires. No insert, update or delete policy: nobody writes attachments' objects as
-- themselves; uploads go to the signed upload URLs the API issues, which Storage runs as its owner.
create policy "Members can read their workspaces' attachment objects" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'attachments'
    and (storage.foldername(name))[1] in (select w::text from private.caller_workspace_ids() w)
    and (
      (select auth.jwt() ->> 'aal') = 'aal2'
      or (storage.foldername(name))[1] not in (select w::text from private.caller_mfa_workspace_ids() w)
    )
  );

-- The sweep (docs/decisions/0024): deletes pending attachments whose hour is up and answers their objects'
-- paths, with those of objects in the bucket that no attachment owns (their task or workspace was deleted,
-- or an earlier removal failed) and that are older than an hour. The caller then removes those objects
-- through Storage, which alone may delete them; rows go first, so that an upload completed meanwhile finds
-- no attachment rather than a ready one without its object. Run as the service.
create function private.sweep_attachment_uploads(max_rows integer)
returns table (object_path text)
language sql
volatile
security definer
set search_path = ''
as $$
  with expired as (
    delete from public.attachments a
    where a.id in (
      select x.id from public.attachments x
      where x.status = 'pending' and x.created_at < now() - interval '1 hour'
      order by x.created_at
      limit max_rows
    )
    returning a.object_path
  )
  select e.object_path from expired e
  union all
  (
    select o.name from storage.objects o
    where o.bucket_id = 'attachments' and o.created_at < now() - interval '1 hour'
      and not exists (select 1 from public.attachments a where a.object_path = o.name)
    order by o.created_at
    limit max_rows
  );
$$;
revoke all on function private.sweep_attachment_uploads(integer) from public;
