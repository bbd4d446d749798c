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
create or replace function private.check_comment_write()
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
-- Only writes of the body: removing an author's account (author_id set null) must pass even when archived.
create trigger comments_check_write before insert or update of body on public.comments
  for each row execute function private.check_comment_write();

alter table public.comments enable row level security;
create policy "Members can read their workspaces' comments" on public.comments
  for select to authenticated using ((select private.is_member(workspace_id)));
create policy "Editors can comment as themselves" on public.comments
  for insert to authenticated
  with check (author_id = (select auth.uid()) and (select private.can_edit(workspace_id)));
create policy "Editors can edit their own comments" on public.comments
  for update to authenticated
  using (author_id = (select auth.uid()) and (select private.can_edit(workspace_id)))
  with check (author_id = (select auth.uid()) and (select private.can_edit(workspace_id)));
-- No delete policy: comments are deleted softly, by private.delete_comment.

-- Column grants only: the body is all an author may change; deleting goes through the function below.
revoke all on table public.comments from anon, authenticated;
grant select on public.comments to authenticated;
grant insert (task_id, author_id, body) on public.comments to authenticated;
grant update (body) on public.comments to authenticated;

-- A comment as the API answers it (GET /v1/comments/{id}), for event data and for the API itself, which
-- selects it as the caller. Security definer only to call private.iso_timestamp; it reads no table.
create or replace function private.comment_json(comment public.comments)
returns jsonb
language sql
immutable
security definer
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
grant execute on function private.comment_json(public.comments) to authenticated;

-- Deletes a comment softly for the caller, who must be its author (and still able to edit) or an admin
-- of its workspace; otherwise raises P0001 with the API's code as the hint (not_found for a comment the
-- caller cannot see, forbidden). With `expected_versions`, only a comment at one of them is deleted:
-- answers null, changing nothing, when it is at another. A comment deleted already is answered as it is.
create or replace function private.delete_comment(comment_id uuid, expected_versions integer[] default null)
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

-- comment.created, comment.updated (the body), comment.deleted. A deleted comment's body leaves the log
-- too: its earlier events are redacted, since no reader of the feed may see it any more (SPEC §7). A
-- comment that goes with its task tells nothing of its own: the task's event says it.
create or replace function private.log_comment_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  project uuid := (select t.project_id from public.tasks t where t.id = new.task_id);
  changed jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.append_event(
      new.workspace_id, project, new.task_id, 'comment.created', private.comment_json(new)
    );
  elsif new.deleted_at is not null and old.deleted_at is null then
    update public.events e
      set data = jsonb_set(e.data, '{body}', 'null'::jsonb),
        previous_attributes = e.previous_attributes - 'body'
      where e.task_id = new.task_id and e.type in ('comment.created', 'comment.updated')
        and e.data ->> 'id' = new.id::text;
    perform private.append_event(
      new.workspace_id, project, new.task_id, 'comment.deleted', private.comment_json(new)
    );
  else
    changed := private.previous_attributes(private.comment_json(old), private.comment_json(new));
    if changed <> '{}'::jsonb then
      perform private.append_event(
        new.workspace_id, project, new.task_id, 'comment.updated', private.comment_json(new), changed
      );
    end if;
  end if;
  return new;
end;
$$;
create trigger comments_log_change after insert or update of body, deleted_at on public.comments
  for each row execute function private.log_comment_change();
