-- Comments (SPEC §3, §5, §6): the discussion on a task, in markdown stored as text and never rendered by
-- the API. Members read them; members who can edit write them and edit their own. A comment is deleted
-- softly, by its author or an admin: it keeps its place in the thread as "deleted", with no body left.
-- At most 1,000 comments per task (COMMENTS_PER_TASK in limits.ts), deleted ones included since they
-- keep their place; counted under the task row's lock so that concurrent comments cannot pass it.

create table public.comments (
  id uuid primary key default gen_random_uuid(),
  -- Copied from the task by the trigger below: RLS reads it without a join.
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  task_id uuid not null references public.tasks (id) on delete cascade,
  author_id uuid references auth.users (id) on delete set null,
  -- Null once deleted: what a deleted comment said is gone, not hidden.
  body text check (char_length(btrim(body)) between 1 and 10000),
  edited_at timestamptz,
  deleted_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((body is null) = (deleted_at is not null))
);
create index comments_task_id_created_at_idx on public.comments (task_id, created_at, id);
create index comments_workspace_id_idx on public.comments (workspace_id);
create index comments_author_id_idx on public.comments (author_id);
create trigger comments_bump_version before update on public.comments
  for each row execute function private.bump_version();

-- Before a comment is written: it takes its workspace from its task and may only be written while the
-- task's project is active (SPEC §4: archived projects are read-only). A new comment waits for the task
-- row's lock, so one task's comments are counted one at a time; `no key update` leaves foreign-key
-- checks on the task unblocked. An edit of the body sets edited_at. Security definer: the caller need
-- not be able to lock the task.
create function private.check_comment_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  task_workspace uuid;
  project_archived_at timestamptz;
begin
  if tg_op = 'INSERT' then
    select t.workspace_id, p.archived_at into task_workspace, project_archived_at
      from public.tasks t join public.projects p on p.id = t.project_id
      where t.id = new.task_id
      for no key update of t;
    if task_workspace is null then
      raise exception 'no such task' using errcode = 'P0001', hint = 'not_found';
    end if;
    if (select count(*) from public.comments c where c.task_id = new.task_id) >= 1000 then
      raise exception 'comment limit reached' using errcode = 'P0001', hint = 'limit_reached';
    end if;
    new.workspace_id := task_workspace;
  else
    select p.archived_at into project_archived_at
      from public.tasks t join public.projects p on p.id = t.project_id
      where t.id = old.task_id;
    if new.body is distinct from old.body and new.deleted_at is null then
      new.edited_at := now();
    end if;
  end if;
  if project_archived_at is not null then
    raise exception 'the project is archived' using errcode = 'P0001', hint = 'project_archived';
  end if;
  return new;
end;
$$;
revoke all on function private.check_comment_write() from public;
-- Only writes of the body: removing an author's account (author_id set null) must pass even when archived.
create trigger comments_check_write before insert or update of body on public.comments
  for each row execute function private.check_comment_write();

-- Each policy compares the row's workspace with the caller's workspaces, computed once per statement
-- (see private.caller_workspace_ids).
alter table public.comments enable row level security;
create policy "Members can read their workspaces' comments" on public.comments
  for select to authenticated using (workspace_id in (select private.caller_workspace_ids()));
create policy "Editors can comment as themselves" on public.comments
  for insert to authenticated
  with check (
    author_id = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids())
  );
create policy "Editors can edit their own comments" on public.comments
  for update to authenticated
  using (author_id = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids()))
  with check (
    author_id = (select auth.uid()) and workspace_id in (select private.caller_editable_workspace_ids())
  );
create policy "Workspaces that require MFA admit aal2 only" on public.comments
  as restrictive for all to authenticated
  using (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  )
  with check (
    (select auth.jwt() ->> 'aal') = 'aal2' or workspace_id not in (select private.caller_mfa_workspace_ids())
  );
-- No delete policy: comments are deleted softly, by private.delete_comment.

-- Column grants only: the body is all an author may change; deleting goes through the function below.
revoke all on table public.comments from anon, authenticated;
grant select on public.comments to authenticated;
grant insert (task_id, author_id, body) on public.comments to authenticated;
grant update (body) on public.comments to authenticated;

-- A comment as the API answers it (GET /v1/comments/{id}), for event data, for the API itself and for
-- the export, which select it as the caller: a pure function of the row it is given.
create function private.comment_json(comment public.comments)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'object', 'comment',
    'id', comment.id,
    'task_id', comment.task_id,
    'author_id', comment.author_id,
    'body', comment.body,
    'deleted', comment.deleted_at is not null,
    'edited_at', private.iso_timestamp(comment.edited_at),
    'deleted_at', private.iso_timestamp(comment.deleted_at),
    'version', comment.version,
    'created_at', private.iso_timestamp(comment.created_at),
    'updated_at', private.iso_timestamp(comment.updated_at)
  );
$$;
revoke all on function private.comment_json(public.comments) from public;
grant execute on function private.comment_json(public.comments) to authenticated;


-- Deletes a comment softly for the caller, who must be its author (and still able to edit) or an admin
-- of its workspace; otherwise raises P0001 with the API's code as the hint (not_found for a comment the
-- caller cannot see, forbidden). With `expected_versions`, only a comment at one of them is deleted:
-- answers null, changing nothing, when it is at another. A comment deleted already is answered as it is.
create function private.delete_comment(comment_id uuid, expected_versions integer[] default null)
returns public.comments
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.comments;
begin
  select * into target from public.comments c where c.id = comment_id for update;
  if target.id is null or not private.is_member(target.workspace_id) then
    raise exception 'no such comment' using errcode = 'P0001', hint = 'not_found';
  end if;
  if not (
    private.is_admin(target.workspace_id)
    or (target.author_id = (select auth.uid()) and private.can_edit(target.workspace_id))
  ) then
    raise exception 'may not delete this comment' using errcode = 'P0001', hint = 'forbidden';
  end if;
  if expected_versions is not null and not target.version = any (expected_versions) then
    return null;
  end if;
  if target.deleted_at is not null then
    return target;
  end if;
  update public.comments c set body = null, deleted_at = now() where c.id = comment_id returning * into target;
  return target;
end;
$$;
revoke all on function private.delete_comment(uuid, integer[]) from public;
grant execute on function private.delete_comment(uuid, integer[]) to authenticated;

-- The workspace of a comment in one of the caller's workspaces, MFA ones included: what the API needs at
-- aal1 to answer `403 mfa_required` instead of `404`.
create function private.caller_workspace_of_comment(comment uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select c.workspace_id from public.comments c
  where c.id = comment and c.workspace_id in (select private.caller_workspace_ids());
$$;
revoke all on function private.caller_workspace_of_comment(uuid) from public;
grant execute on function private.caller_workspace_of_comment(uuid) to authenticated;
